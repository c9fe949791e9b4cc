module pqid.test/go-hpke

go 1.26

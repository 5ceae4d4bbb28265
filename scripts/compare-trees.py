#!/usr/bin/env python3
# Compares two report trees written by `ezreport monthly` from the same ledger, period and as-of date,
# for refactors that must not change any output: CSV, PNG and every other file byte-identical; each
# XLSX part and each PDF stream decompressed identical (compression and the PDF's /ID may differ).
# manifests (manifest*.json) and a run's dot-files (.entries*.jsonl, .lock*) are skipped (they hold file sizes and hashes of the compressed
# files). Usage: scripts/compare-trees.py OLD NEW [--provenance OLD_LEDGER NEW_LEDGER]; exit 0 when
# equal, 1 otherwise.
#
# --provenance: the trees were read from two copies of the same rows in different ledgers (a SQLite
# file and a PostgreSQL database): only the provenance that names the ledger may differ. Then a PDF
# must have the same pages, every page that does not hold the provenance sentence must have the same
# text and render (pdftoppm) to the same pixels, and the page that holds it the same words once the
# sentence is removed; an XLSX's cells
# must be equal except the rows that name the ledger (its path or URL, its SHA-256) and
# docProps/core.xml's comment.
import os,sys,zipfile,zlib,re,hashlib,subprocess
args=sys.argv[1:]
names=None
if '--provenance' in args:
    i=args.index('--provenance'); names=(args[i+1],args[i+2]); del args[i:i+3]
a,b=args[0],args[1]
def files(root):
    out={}
    for d,_,fs in os.walk(root):
        for f in fs:
            p=os.path.join(d,f); out[os.path.relpath(p,root)]=p
    return out
A,B=files(a),files(b)
bad=0
def report(k): return not os.path.basename(k).startswith('.') and not (os.path.basename(k).startswith('manifest') and k.endswith('.json'))
if {k for k in A if report(k)}!={k for k in B if report(k)}:
    print("file sets differ:",sorted({k for k in set(A)^set(B) if report(k)})[:10]); bad+=1
def pdf_streams(data):
    out=[]
    for m in re.finditer(rb'(?<!end)stream\r?\n',data):
        start=m.end(); end=data.find(b'endstream',start)
        raw=data[start:end]
        try: out.append(zlib.decompressobj().decompress(raw))
        except Exception: out.append(raw.rstrip(b'\r\n'))
    return out
def pdf_pages(path):
    text=subprocess.run(['pdftotext',path,'-'],capture_output=True,check=True).stdout.decode()
    return text.split('\f')
def without_provenance(page):
    page=' '.join(page.split())
    # The provenance sentence, in any language: from the engine's name to the end of its sentence.
    return re.sub(r'ezreport \S+[^.。]*[.。]','<provenance>',page)
def render(path,page):
    return subprocess.run(['pdftoppm','-r','30','-png','-f',str(page),'-l',str(page),path],capture_output=True,check=True).stdout
FOOTER=re.compile(r'(Page|Seite|Pagina|Página|Page) \d+ (of|von|di|de|sur) \d+|\d+ / \d+ ページ')
def words_but_provenance(pages):
    # Lines every page has (the running title) and the page numbers are the page furniture.
    pages=[FOOTER.sub('',x) for x in pages if x.strip()]
    furniture=set.intersection(*[set(l.strip() for l in x.splitlines() if l.strip()) for x in pages]) if pages else set()
    body=[l for x in pages for l in x.splitlines() if l.strip() and l.strip() not in furniture]
    return sorted(without_provenance(' '.join(body)).split())
def pdf_equal_but_provenance(pa,pb):
    ta,tb=pdf_pages(pa),pdf_pages(pb)
    # The provenance sentence is longer for one ledger than the other: where it wraps to one more
    # line at the foot of the last page, the About section starts a page of its own. Then the
    # documents must hold the same words, page footers ("Page n of N") and the sentence aside.
    if len(ta)!=len(tb): return abs(len(ta)-len(tb))==1 and words_but_provenance(ta)==words_but_provenance(tb)
    for n,(x,y) in enumerate(zip(ta,tb),1):
        if x==y:
            if x.strip() and render(pa,n)!=render(pb,n): return False
        # The page holding the sentence: the same words (pdftotext may order its blocks differently).
        elif sorted(without_provenance(x).split())!=sorted(without_provenance(y).split()): return False
    return True
PROVENANCE=re.compile(r'^([0-9a-f]{64}|PostgreSQL|)$')
def provenance_cell(x,y):
    sx,sy=str(x or ''),str(y or '')
    if names and (names[0] in sx or names[1] in sy): return True
    return bool(PROVENANCE.match(sx.strip())) and bool(PROVENANCE.match(sy.strip()))
def xlsx_equal(pa,pb):
    za,zb=zipfile.ZipFile(pa),zipfile.ZipFile(pb)
    if za.namelist()!=zb.namelist(): return False
    if not names: return all(za.read(nm)==zb.read(nm) for nm in za.namelist())
    for nm in za.namelist():
        if nm=='docProps/core.xml' or nm=='xl/sharedStrings.xml' or nm.startswith('xl/worksheets/'): continue
        if za.read(nm)!=zb.read(nm): return False
    import openpyxl
    wa,wb=openpyxl.load_workbook(pa),openpyxl.load_workbook(pb)
    if wa.sheetnames!=wb.sheetnames: return False
    for s in wa.sheetnames:
        ra=[[c.value for c in r] for r in wa[s].iter_rows()]; rb=[[c.value for c in r] for r in wb[s].iter_rows()]
        if len(ra)!=len(rb): return False
        for x,y in zip(ra,rb):
            if len(x)!=len(y): return False
            # A row that names the ledger may differ whole (its label and its value).
            if any(provenance_cell(cx,cy) for cx,cy in zip(x,y) if cx!=cy): continue
            if x!=y: return False
    return True
n=0
for k in sorted(set(A)&set(B)):
    x,y=open(A[k],'rb').read(),open(B[k],'rb').read()
    n+=1
    if k.endswith('.pdf'):
        sa,sb=pdf_streams(x),pdf_streams(y)
        if names:
            if sa!=sb and not pdf_equal_but_provenance(A[k],B[k]):
                print("PDF differs beyond its provenance:",k); bad+=1
        elif sa!=sb: print("PDF streams differ:",k); bad+=1
    elif k.endswith('.xlsx'):
        if not xlsx_equal(A[k],B[k]): print("XLSX parts differ:",k); bad+=1
    elif k.endswith('.json') and os.path.basename(k).startswith('manifest') or os.path.basename(k).startswith('.'):
        pass   # manifests, and a run's own bookkeeping (.entries*.jsonl, .lock*): not reports
    else:
        if x!=y: print("bytes differ:",k); bad+=1
print(f"{n} files compared, {bad} differences")
sys.exit(1 if bad else 0)

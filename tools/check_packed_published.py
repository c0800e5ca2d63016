#!/usr/bin/env python3
"""Independent check of packed certificates (docs/templates.md, "Packed certificates").

Usage: tools/check_packed_published.py OLD.json NEW.json [--changed NAME,NAME...]
Decodes every "packed" certificate of NEW with this Python decoder (not the Rust one) and
asserts that every entry of NEW equals the one of OLD (either form), nodes as objects (same order,
same fields). Used for the migration of 2026-11-29 (session 23). With --changed, the named
entries (e.g. Selinger:template-8-kyjz) may differ: their packed certificates are only decoded
(the whole stream, to its last byte) and the other fields listed; every other entry must be
equal (session 24: the entries re-decided by the importer).
"""
import json,zlib,base64,sys
old=json.load(open(sys.argv[1]))['templates']; new=json.load(open(sys.argv[2]))['templates']
changed=set(sys.argv[4].split(',')) if len(sys.argv)>4 and sys.argv[3]=='--changed' else set()
def unpack(t):
    b=zlib.decompress(base64.b64decode(t,validate=True),-15); i=0
    def v():
        nonlocal i; x=0; s=0
        while True:
            c=b[i]; i+=1; x|=(c&0x7f)<<s; s+=7
            if c<0x80: return x
    def z(): u=v(); return (u>>1)^-(u&1)
    n=v(); out=[]
    for k in range(n):
        tag=b[i]; i+=1; d={}
        if tag&1: d['s']=format(v(),'x')
        if tag&2: d['c']=format(v(),'x')
        if tag&4: d['g']=[z(),z()]
        if tag&32: d['e']=[[z(),z()] for _ in range(v())]
        if tag&8: d['or']=[[v(),k-z()] for _ in range(v())]
        if tag&16: d['and']=[k-z() for _ in range(v())]
        out.append(d)
    assert i==len(b); return out
nrec=0;nn=0
seen=set()
for a,bb in zip(old,new,strict=True):
    assert a['name']==bb['name'] and a['collection']==bb['collection'], (a['name'],bb['name'])
    if a['name'] in changed:
        seen.add(a['name'])
        for key in ('record','minimized'):
            r=bb[key]
            if r is None: continue
            c=r['certificate']; nodes=unpack(c['packed']) if 'packed' in c else c['nodes']
            nrec+=1; nn+=len(nodes)
            print('changed:',a['name'],key,len(nodes),'nodes decoded')
        print('changed:',a['name'],a['verdict'],'->',bb['verdict'],'| tried:',bb['tried'][-160:])
        continue
    for key in ('record','minimized'):
        ra,rb=a[key],bb[key]
        if ra is None: assert rb is None; continue
        ca=ra['certificate']; cb=rb['certificate']
        nodes=unpack(cb['packed']) if 'packed' in cb else cb['nodes']
        assert nodes==(unpack(ca['packed']) if 'packed' in ca else ca['nodes']), a['name']
        assert ca['root']==cb['root'] and ca['first']==cb['first']
        nrec+=1; nn+=len(nodes)
        ra=dict(ra); rb=dict(rb); del ra['certificate']; del rb['certificate']; assert ra==rb
    a=dict(a); bb=dict(bb); a.pop('record');bb.pop('record');a.pop('minimized');bb.pop('minimized'); assert a==bb
assert seen==changed, ('not found', changed-seen)
print('same:',len(old)-len(changed),'entries, changed:',len(changed),';',nrec,'records',nn,'nodes')

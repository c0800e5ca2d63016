#!/usr/bin/env python3
"""Independent check of packed certificates (docs/templates.md, "Packed certificates").

Usage: tools/check_packed_published.py OLD.json NEW.json
Decodes every "packed" certificate of NEW with this Python decoder (not the Rust one) and
asserts that every entry of NEW equals the one of OLD, nodes as objects (same order,
same fields). Used for the migration of 2026-11-29 (session 23).
"""
import json,zlib,base64,sys
old=json.load(open(sys.argv[1]))['templates']; new=json.load(open(sys.argv[2]))['templates']
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
        if tag&8: d['or']=[[v(),k-z()] for _ in range(v())]
        if tag&16: d['and']=[k-z() for _ in range(v())]
        out.append(d)
    assert i==len(b); return out
nrec=0;nn=0
for a,bb in zip(old,new,strict=True):
    for key in ('record','minimized'):
        ra,rb=a[key],bb[key]
        if ra is None: assert rb is None; continue
        ca=ra['certificate']; cb=rb['certificate']
        nodes=unpack(cb['packed']) if 'packed' in cb else cb['nodes']
        assert nodes==ca['nodes'], a['name']
        assert ca['root']==cb['root'] and ca['first']==cb['first']
        nrec+=1; nn+=len(nodes)
        ra=dict(ra); rb=dict(rb); del ra['certificate']; del rb['certificate']; assert ra==rb
    a=dict(a); bb=dict(bb); a.pop('record');bb.pop('record');a.pop('minimized');bb.pop('minimized'); assert a==bb
print('same:',len(old),'entries',nrec,'records',nn,'nodes')

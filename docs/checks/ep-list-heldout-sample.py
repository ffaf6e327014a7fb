import json, random, os, sys
# usage: python3 ep-list-heldout-sample.py LIST.json  (the output of ep list --json)
d=json.load(open(sys.argv[1]))
excl = {
 'rust': {'RFC 179','RFC 534','RFC 3849','RFC 1068','RFC 2126','RFC 2580'},
 'presto': {'RFC-1','RFC-2','RFC-6','RFC-7','RFC-8','RFC-10','RFC-20'},
 'scikit-learn': {'SLEP 4'},
 'grpc-go': {'gRFC A103','gRFC A115','gRFC A27'},
 'cpython': {'PEP 604'}, 'mypy': {'PEP 604'},
 'django': {'DEP 7'},
 'prometheus': {'PROM-29'},
 'kubernetes': {'KEP-4355','KEP-1177'},
}
roslyn_excl = ['primary-constructors','readonly-instance-members','labeled-break-continue','low-level-struct-improvements','multiple-using-var-discards']
random.seed(33)
used=set(); out={}
for p in d:
    name=p['project']
    el=[]
    for x in p['proposals']:
        if x['id'] in excl.get(name,set()): continue
        if name=='roslyn' and os.path.splitext(os.path.basename(x['path']))[0] in roslyn_excl: continue
        if name=='mypy' and x['path'] in used: continue
        el.append(x)
    s=random.sample(el,3)
    for x in s: used.add(x['path'])
    out[name]=s
    print('==',name, len(el))
    for x in s: print(json.dumps(x, ensure_ascii=False))
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)

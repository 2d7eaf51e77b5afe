# The cycles among a build's objects, for tests/host/call-cycles.sh:
#   call-cycles.py OBJDIR
# An object depends on another when it uses a symbol the other defines (nm); each strongly
# connected set of more than one object is printed on a line, its sources sorted ("a.c b.c").
import collections, os, subprocess, sys

root = sys.argv[1].rstrip("/")
objs = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".o"))
defs, uses = {}, collections.defaultdict(set)
out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout
for line in out.splitlines():  # "FILE.o:VALUE TYPE NAME", or "FILE.o:         U NAME"
    where, _, rest = line.partition(".o:")
    where += ".o"
    f = rest.split()
    if len(f) == 3 and f[1] in "TDBR":
        defs[f[2]] = where
    elif len(f) == 2 and f[0] == "U":
        uses[where].add(f[1])
graph = {o: {defs[u] for u in uses[o] if u in defs and defs[u] != o} for o in objs}
index, low, stack, on, cycles = {}, {}, [], set(), []


def connect(v):
    # Tarjan's strongly connected components, iteratively
    work = [(v, iter(sorted(graph[v])))]
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    while work:
        node, edges = work[-1]
        for w in edges:
            if w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph[w]))))
                break
            if w in on:
                low[node] = min(low[node], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    cycles.append(sorted(c[len(root) + 1:-2] + ".c" for c in comp))


for o in objs:
    if o not in index:
        connect(o)
for c in sorted(cycles):
    print(" ".join(c))

# Whether every boot of an SQLite store is whole, for tests/host/store-concurrent.sh:
#   store-whole.py FULL DB
# FULL: a store a whole store add made; DB: one made by adds that were killed or ran beside
# another. Each boot of DB has the runs, values and environment it has in FULL (else exit 1,
# the first boot that differs said); prints how many boots DB has.
import sqlite3, sys

q = """SELECT b.boot_id, count(DISTINCT r.id), count(v.value),
           (SELECT count(*) FROM env e WHERE e.boot = b.id)
       FROM boots b LEFT JOIN runs r ON r.boot = b.id LEFT JOIN vals v ON v.run = r.id
       GROUP BY b.id"""
full = {r[0]: r[1:] for r in sqlite3.connect(sys.argv[1]).execute(q)}
db = sqlite3.connect(sys.argv[2])
boots = {r[0]: r[1:] for r in db.execute(q)}
for b, counts in boots.items():
    if counts != full.get(b):
        sys.exit("boot %s: runs, values, env %s, a whole add: %s" % (b, counts, full.get(b)))
print(len(boots))

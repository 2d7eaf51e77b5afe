# Whether every boot of a store is whole, for tests/host/store-concurrent.sh and
# tests/host/store-postgresql.sh:
#   store-whole.py FULL DB
# FULL: a store a whole store add made; DB: one made by adds that were killed or ran beside
# another. Each is an SQLite file or a postgresql:// URL (read with $PSQL, PostgreSQL's psql).
# Each boot of DB has the runs, values and environment it has in FULL (else exit 1, the first
# boot that differs said); prints how many boots DB has.
import os, sqlite3, subprocess, sys

q = """SELECT b.boot_id, count(DISTINCT r.id), count(v.value),
           (SELECT count(*) FROM env e WHERE e.boot = b.id)
       FROM boots b LEFT JOIN runs r ON r.boot = b.id LEFT JOIN vals v ON v.run = r.id
       GROUP BY b.id"""


def boots(db):
    if db.startswith("postgresql:"):
        r = subprocess.run([os.environ["PSQL"], "-X", "-At", "-F", "|", "-d", db, "-c", q],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("psql %s: %s" % (db, r.stderr.strip()))
        rows = [line.split("|") for line in r.stdout.splitlines() if line]
        return {r[0]: tuple(int(x) for x in r[1:]) for r in rows}
    return {r[0]: tuple(r[1:]) for r in sqlite3.connect(db).execute(q)}


full, part = boots(sys.argv[1]), boots(sys.argv[2])
for b, counts in part.items():
    if counts != full.get(b):
        sys.exit("boot %s: runs, values, env %s, a whole add: %s" % (b, counts, full.get(b)))
print(len(part))

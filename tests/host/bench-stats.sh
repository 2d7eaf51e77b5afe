# bench/bbstats.py's statistics the calibration reports with (bench/calibrate.sh): the exact
# upper bound of a rate (Clopper-Pearson) against its closed form for no events and its
# definition otherwise, and Student's t quantiles against the printed table.
. tests/lib.sh
command -v python3 >/dev/null || skip "python3 is needed for bench/bbstats.py"
python3 - <<'PY' || fail "bench/bbstats.py"
import math, sys
sys.path.insert(0, "bench")
import bbstats as s
# no events: 1 - alpha^(1/n); 0 of 20 bounds a rate below 13.9% (docs/compare.md)
for n in (20, 40, 100):
    assert abs(s.clopper_pearson_upper(0, n) - (1 - 0.05 ** (1 / n))) < 1e-9, n
assert abs(s.clopper_pearson_upper(0, 20) - 0.1391) < 1e-4
# otherwise the p at which k or fewer come with probability 5%
for k, n in ((1, 20), (5, 100), (3, 40), (50, 100)):
    u = s.clopper_pearson_upper(k, n)
    assert k / n < u < 1, (k, n, u)
    assert abs(s.binomial_cdf(k, n, u) - 0.05) < 1e-9, (k, n, u)
    assert s.binomial_cdf(k, n, u * 0.99) > 0.05 > s.binomial_cdf(k, n, min(1, u * 1.01))
assert s.clopper_pearson_upper(20, 20) == 1.0
# the binomial cdf sums to 1 and matches a direct count
assert abs(s.binomial_cdf(10, 10, 0.3) - 1) < 1e-12
assert abs(s.binomial_cdf(1, 3, 0.5) - 0.5) < 1e-12
# Student's t: the printed table (two-sided 95%)
for df, t in ((1, 12.706), (2, 4.303), (5, 2.571), (30, 2.042)):
    assert abs(s.t_quantile(0.975, df) - t) < 5e-4, (df, s.t_quantile(0.975, df))
print("bbstats: Clopper-Pearson bounds and t quantiles as expected; 5 of 100: below %.4f" % s.clopper_pearson_upper(5, 100))
PY

# Student-t intervals for the bench scripts (bench/position-effect.py, bench/harness-bias.sh).
# The t distribution (lib/host/compare/statistics.c takes it from the incomplete beta function;
# the same figures here by another road): P(0 <= T <= t) is, with
# x = sqrt(df) tan u, a constant times the integral of cos(u)^(df-1) over [0, atan(t/sqrt(df))],
# integrated with Simpson's rule; the quantile by bisection.
import math
import statistics


def t_cdf(t, df):
    top, steps = math.atan(abs(t) / math.sqrt(df)), 1024
    h = top / steps
    s = sum((1 if i in (0, steps) else (4 if i % 2 else 2)) * math.cos(i * h) ** (df - 1)
            for i in range(steps + 1))
    k = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(math.pi)
    half = k * s * h / 3
    return 0.5 + half if t >= 0 else 0.5 - half


def t_quantile(p, df):
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def interval(ds):
    """Mean of ds and its 95% Student-t interval (None, None with fewer than 2 values)."""
    n = len(ds)
    m = statistics.mean(ds)
    if n < 2:
        return m, None, None
    half = t_quantile(0.975, n - 1) * statistics.stdev(ds) / math.sqrt(n)
    return m, m - half, m + half


def welch(x, y):
    """Mean of x minus mean of y, its 95% interval and Welch-Satterthwaite's df."""
    vx, vy = statistics.variance(x) / len(x), statistics.variance(y) / len(y)
    df = (vx + vy) ** 2 / (vx * vx / (len(x) - 1) + vy * vy / (len(y) - 1)) if vx + vy > 0 else len(x) + len(y) - 2
    d = statistics.mean(x) - statistics.mean(y)
    half = t_quantile(0.975, df) * math.sqrt(vx + vy)
    return d, d - half, d + half, df


def binomial_cdf(k, n, p):
    """P(X <= k) for X binomial with n trials of probability p."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    return min(1.0, sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                                 + i * lp + (n - i) * lq) for i in range(k + 1)))


def clopper_pearson_upper(k, n, alpha=0.05):
    """The exact one-sided (1 - alpha) upper bound of a rate seen k times in n (Clopper and
    Pearson, 1934): the p at which k or fewer would be seen with probability alpha. For k = 0
    it is 1 - alpha^(1/n)."""
    if n <= 0:
        return 1.0
    if k >= n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if binomial_cdf(k, n, mid) > alpha else (lo, mid)
    return (lo + hi) / 2

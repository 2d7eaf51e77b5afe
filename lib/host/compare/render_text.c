/* The 0-day style text table of a comparison; see render.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/compare/render.h"
#include "host/compare/stat_rules.h"

const char *bb_fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e8 || a < 1e-3)
		snprintf(buf, len, "%.4g", v);
	else if (v == floor(v) || a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/*
 * " ± NN%" when the relative stddev exceeds 2%, else blanks; 6 columns either way. The
 * percentage is cut to a whole number, as LKP's printf("%d") does with a float.
 */
const char *bb_fmt_rsd(const struct bb_sample *s, char *buf, size_t len)
{
	if (s->n && s->mean != 0 && 100 * s->sd / fabs(s->mean) > 2)
		snprintf(buf, len, " \u00b1 %2d%%", (int)(100 * s->sd / fabs(s->mean)));
	else
		snprintf(buf, len, "      ");
	return buf;
}

const char *bb_fmt_change(const struct bb_stat_cmp *s, char *buf, size_t len)
{
	if (!s->na || !s->nb)
		snprintf(buf, len, "-");
	else if (!s->change_defined)
		snprintf(buf, len, "n/a");
	else if (s->absolute) /* LKP's show_perf_change: points, no % sign */
		snprintf(buf, len, fabs(s->change) < 100000 ? "%+.1f" : "%+.2g", s->change);
	else
		snprintf(buf, len, "%+.1f%%", s->change);
	return buf;
}

/* The interval column: [lo, hi] with the boot as the unit, (lo, hi) within one boot only;
 * "-" when there is none (too few values, or A's mean is 0: no ratio). */
const char *bb_fmt_interval(const struct bb_stat_cmp *s, char *buf, size_t len)
{
	const struct bb_interval *iv = &s->iv;
	int boots = iv->basis == BB_IV_BOOTS;
	if (iv->basis == BB_IV_NONE || (!iv->absolute && s->sa.mean == 0))
		snprintf(buf, len, "-");
	else if (iv->crossover && iv->df < 1)
		snprintf(buf, len, "[too few boots]");
	else if (!iv->bounded)
		snprintf(buf, len, "%s", boots ? "[unbounded]" : "(unbounded)");
	else
		snprintf(buf, len, "%c%.1f, %.1f%c", boots ? '[' : '(', iv->lo, iv->hi,
		         boots ? ']' : ')');
	return buf;
}

static void print_stat(FILE *f, const struct bb_stat_cmp *s)
{
	char ma[32], mb[32], ra[32], rb[32], ch[32], iv[64];
	if (s->na)
		bb_fmt_num(s->sa.mean, ma, sizeof(ma));
	else
		snprintf(ma, sizeof(ma), "-");
	if (s->nb)
		bb_fmt_num(s->sb.mean, mb, sizeof(mb));
	else
		snprintf(mb, sizeof(mb), "-");
	fprintf(f, "%16s%s%11s%13s%s  %-16s %c%c  %s\n", ma, bb_fmt_rsd(&s->sa, ra, sizeof(ra)),
	        bb_fmt_change(s, ch, sizeof(ch)), mb, bb_fmt_rsd(&s->sb, rb, sizeof(rb)),
	        bb_fmt_interval(s, iv, sizeof(iv)), s->interval ? 'I' : ' ', s->lkp ? 'L' : ' ',
	        s->name);
}

/* What the intervals of a matched run rest on: boots, or iterations of one boot. */
static void print_basis(FILE *f, const struct bb_run_cmp *rc)
{
	const struct bb_interval *pv = NULL;
	int side_by_side = 0;
	for (size_t k = 0; k < rc->nstats; k++) {
		if (!pv && rc->stats[k].iv.basis == BB_IV_BOOTS && rc->stats[k].iv.paired)
			pv = &rc->stats[k].iv;
		side_by_side |= rc->stats[k].iv.paired && rc->stats[k].side_by_side;
	}
	if (rc->boots_a >= 2 && rc->boots_b >= 2) {
		fprintf(
		    f,
		    "  intervals [ ]: the boot is the unit (per-boot means of %zu and %zu boots, "
		    "%s)\n",
		    rc->boots_a, rc->boots_b,
		    side_by_side ? "paired by the boots that ran side by side"
		    : pv         ? "paired by boot"
		                 : "independent boots");
		/* the order of the sides within the boots (docs/compare.md "Counterbalanced
		 * order") */
		if (pv && pv->crossover && pv->df < 1)
			fprintf(
			    f,
			    "  order: A first in %zu boots, B first in %zu; the order effect "
			    "takes the one degree of\n  freedom 2 boots give: no interval, no I "
			    "mark (a third boot gives one)\n",
			    pv->a_first, pv->b_first);
		else if (pv && pv->crossover)
			fprintf(f,
			        "  order: A first in %zu boots, B first in %zu; the order effect "
			        "taken out (%zu df)\n",
			        pv->a_first, pv->b_first, pv->a_first + pv->b_first - 2);
		else if (pv && (pv->a_first || pv->b_first) && !(pv->a_first && pv->b_first))
			fprintf(f,
			        "  order: %s first in every boot: an effect of the position in the "
			        "boot lands on one side\n  and pairing does not cancel it (boot "
			        "with benchboot run, which turns the order)\n",
			        pv->a_first ? "A" : "B");
	} else
		fprintf(
		    f,
		    "  boot-to-boot variance unknown (%s): intervals ( ) cover the\n"
		    "  iterations within one boot only, no I mark; more boots give [ ] intervals\n",
		    rc->boots_a < 2 && rc->boots_b < 2
		        ? "1 boot a side"
		        : (rc->boots_a < 2 ? "1 boot of A" : "1 boot of B"));
}

/* The marked changes of LKP's KPIs, as 0-day's reports head them: "a -5.2% regression of
 * netperf.Throughput_Mbps". */
static void print_verdicts(FILE *f, const struct bb_run_cmp *rc)
{
	for (size_t k = 0; k < rc->nstats; k++) {
		const struct bb_stat_cmp *s = &rc->stats[k];
		char ch[32];
		if (!s->verdict || s->hidden)
			continue;
		fprintf(f, "  KPI: a %s %s of %s (%s is better)\n", bb_fmt_change(s, ch, sizeof ch),
		        s->verdict, s->name, s->kpi > 0 ? "higher" : "lower");
	}
}

static void print_label(FILE *f, const char *label, int width)
{
	/* too long: drop leading path components first, then characters */
	while ((int)strlen(label) > width && strchr(label, '/'))
		label = strchr(label, '/') + 1;
	int l = (int)strlen(label);
	if (l > width)
		fprintf(f, "%s", label + l - width);
	else
		fprintf(f, "%*s", width, label);
}

/* One environment difference: "KEY  A | B", or for a list "KEY  only in A: x y; only in B: z". */
static void print_env(FILE *f, const struct bb_env_diff *d, int width, const char *sep)
{
	fprintf(f, "  %-*s%s", width ? width - 2 : 0, d->key, sep);
	if (!d->is_set)
		fprintf(f, "%s | %s\n", d->a, d->b);
	else if (*d->a && *d->b)
		fprintf(f, "only in A: %s; only in B: %s\n", d->a, d->b);
	else
		fprintf(f, "only in %s: %s\n", *d->a ? "A" : "B", *d->a ? d->a : d->b);
}

/* "A: LABEL (N boots)", how many of them had kernel stall reports, and how many more boots have
 * no run results (see the notes). */
static void print_side(FILE *f, const char *name, const char *label, size_t boots, size_t stalled,
                       size_t bare)
{
	fprintf(f, "%s: %s (%zu boot%s", name, label, boots, boots == 1 ? "" : "s");
	if (stalled)
		fprintf(f, ", %zu with kernel lockup or stall reports", stalled);
	if (bare)
		fprintf(f, "; %zu more without run results", bare);
	fprintf(f, ")\n");
}

/* The kernel's reports as LKP's failure stats, in the columns of LKP's compare (lib/compare.rb):
 * A's boots that showed it, :boots, B's share minus A's, B's. A zero count is left blank. */
static void print_fails(FILE *f, const struct bb_comparison *c)
{
	if (!c->nfails)
		return;
	fprintf(f, "\nkernel reports, as LKP's dmesg failure stats (fail:runs = boots that showed "
	           "it : boots):\n");
	fprintf(f, "       fail:runs  %%reproduction    fail:runs\n");
	fprintf(f, "           |             |             |    \n");
	for (size_t i = 0; i < c->nfails; i++) {
		const struct bb_fail_stat *fs = &c->fails[i];
		char a[24] = "", b[24] = "";
		if (fs->fails_a)
			snprintf(a, sizeof(a), "%zu", fs->fails_a);
		if (fs->fails_b)
			snprintf(b, sizeof(b), "%zu", fs->fails_b);
		fprintf(f, "%11s:%-4zu%10.0f%% %11s:%-4zu  %s\n", a, fs->runs_a, fs->reproduction,
		        b, fs->runs_b, fs->name);
	}
}

/* After the tables: how many changes, what the marks mean, and the notes on what was shown. */
static void print_legend(FILE *f, const struct bb_comparison *c, int all)
{
	size_t ni = 0, nl = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].nstats; k++) {
			ni += c->runs[i].stats[k].interval;
			nl += c->runs[i].stats[k].lkp;
		}
	fprintf(
	    f,
	    "\n%zu significant change%s: %zu by benchboot's interval (I), %zu by LKP's rule (L)\n"
	    "I: the %g%% interval of the %%change, with the boot as the unit, excludes 0\n"
	    "L: a side with >= 3 samples; one side's min and median above the other's median "
	    "and max;\n   medians over 1%% apart for a test program's stats, 5%% for the "
	    "others;\n   and LKP's minimum size where it has one (.*.time.system_time: "
	    "max >= 10,\n   proc-vmstat.*: max > 1000, ...: --json's lkp.rule says which "
	    "decided)\n",
	    c->nsignificant, c->nsignificant == 1 ? "" : "s", ni, nl, 100 * c->confidence);
	size_t mon = 0, abs = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].nstats; k++) {
			const struct bb_stat_cmp *s = &c->runs[i].stats[k];
			if (s->hidden || !(all || s->significant))
				continue;
			mon += bb_stat_is_monitor(s->name);
			abs += s->absolute;
		}
	if (mon)
		fprintf(f,
		        "   monitor stats (after the test's, LKP's order): 1%% for LKP's perf "
		        "metrics (perf-stat,\n   proc-vmstat, vmstat.cpu/io/swap/system), 5%% for "
		        "the others, and LKP's minimum sizes\n");
	if (abs)
		fprintf(f, "   a change without %% is absolute, B - A in points (perf-profile.*, "
		           "NAME%%), so is its interval\n");
	size_t kpis = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i].nstats; k++)
			kpis += c->runs[i].stats[k].verdict && !c->runs[i].stats[k].hidden;
	if (kpis)
		fprintf(f,
		        "KPI: a marked change of one of LKP's key performance indicators and the "
		        "way it goes,\n   by LKP's etc/index-perf-all.yaml and "
		        "index-latency-all.yaml (kpi_stat_direction)\n");
	if (c->nfails)
		fprintf(f,
		        "%zu kernel report%s changed by LKP's rule for failure stats (one side's "
		        "boots never showed it), of %zu\n",
		        c->nfails_changed, c->nfails_changed == 1 ? "" : "s", c->nfails);
	size_t one = 0;
	for (size_t i = 0; i < c->nruns; i++)
		one += c->runs[i].boots_a < 2 || c->runs[i].boots_b < 2;
	if (one)
		fprintf(
		    f,
		    "%zu run%s with one boot on a side: boot-to-boot variance unknown, an L there "
		    "rests on\n   the iterations of one boot\n",
		    one, one == 1 ? "" : "s");
}

void bb_comparison_print(FILE *f, const struct bb_comparison *c, int all)
{
	print_side(f, "A", c->label_a, c->boots_a, c->stalled_boots_a, c->bare_boots_a);
	print_side(f, "B", c->label_b, c->boots_b, c->stalled_boots_b, c->bare_boots_b);
	if (c->nenv) {
		size_t w = 0;
		for (size_t i = 0; i < c->nenv; i++)
			if (strlen(c->env[i].key) > w)
				w = strlen(c->env[i].key);
		fprintf(f, "\nenvironment differences (A | B):\n");
		for (size_t i = 0; i < c->nenv; i++)
			print_env(f, &c->env[i], (int)w + 2, "  ");
	} else {
		fprintf(f, "\nenvironment: no difference\n");
	}
	print_fails(f, c);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct bb_run_cmp *rc = &c->runs[i];
		char *d = bb_kvs_format_words(&rc->params);
		fprintf(f, "\nrun %s\n", d && *d ? d : "(no parameters)");
		free(d);
		fprintf(f, "  A: %zu run%s in %zu boot%s%s%s", rc->runs_a,
		        rc->runs_a == 1 ? "" : "s", rc->boots_a, rc->boots_a == 1 ? "" : "s",
		        rc->axis_a ? ", " : "", rc->axis_a ? rc->axis_a : "");
		fprintf(f, "   B: %zu run%s in %zu boot%s%s%s\n", rc->runs_b,
		        rc->runs_b == 1 ? "" : "s", rc->boots_b, rc->boots_b == 1 ? "" : "s",
		        rc->axis_b ? ", " : "", rc->axis_b ? rc->axis_b : "");
		print_basis(f, rc);
		if (rc->failed_a || rc->failed_b)
			fprintf(f, "  failed iterations: A %zu, B %zu\n", rc->failed_a,
			        rc->failed_b);
		for (size_t k = 0; k < rc->nenv; k++)
			print_env(f, &rc->env[k], 0, ": ");
		size_t shown = 0;
		for (size_t k = 0; k < rc->nstats; k++)
			shown += !rc->stats[k].hidden && (all || rc->stats[k].significant);
		if (!shown) {
			fprintf(f, "  no significant change in %zu stat%s\n",
			        rc->nstats - rc->nhidden, rc->nstats - rc->nhidden == 1 ? "" : "s");
			continue;
		}
		fputc('\n', f);
		fputs("  ", f);
		print_label(f, c->label_a, 20);
		fputs(" ", f);
		print_label(f, c->label_b, 29);
		fputs("\n  -------------------- -----------------------------\n", f);
		fprintf(f, "%22s%11s%19s  %s\n", "%stddev", "%change", "%stddev", "95% interval");
		fprintf(f, "%22s%11s%19s\n", "\\", "|", "\\");
		for (size_t k = 0; k < rc->nstats; k++)
			if (!rc->stats[k].hidden && (all || rc->stats[k].significant))
				print_stat(f, &rc->stats[k]);
		print_verdicts(f, rc);
	}
	if (c->nnotes) {
		fprintf(f, "\nnotes:\n");
		for (size_t i = 0; i < c->nnotes; i++)
			fprintf(f, "  %s\n", c->notes[i]);
	}
	if (c->nmissing) {
		fprintf(f, "\nmissing (no data is not \"no change\": exit 100):\n");
		for (size_t i = 0; i < c->nmissing; i++)
			fprintf(f, "  %s\n", c->missing[i]);
	}
	print_legend(f, c, all);
}

/* A deterministic FAT32 writer (see fat.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/boot/fat.h"
#include "host/le.h"
#include "host/fileio.h"
#include "grow.h"

#define SECTOR 512
#define RESERVED 32
#define NFATS 2
#define MIN_CLUSTERS 65525u
#define MAX_CLUSTERS 0x0ffffff5u
#define FAT_EOC 0x0fffffffu
#define ATTR_VOLUME_ID 0x08
#define ATTR_DIRECTORY 0x10
#define ATTR_ARCHIVE 0x20

struct geometry {
	uint64_t sectors;
	uint32_t spc; /* sectors per cluster */
	uint32_t fat_sectors;
	uint32_t data_start; /* sector of cluster 2 */
	uint32_t clusters;
};

struct node {
	char name[11];
	int is_dir;
	const struct fat_file *file;
	struct node *parent;
	struct node **kids;
	size_t nkids, kids_cap;
	uint32_t first, count; /* clusters */
};

static int geometry(uint64_t size, struct geometry *g)
{
	if (!size || size % SECTOR)
		return -EINVAL;
	g->sectors = size / SECTOR;
	if (g->sectors > 0xffffffffu)
		return -EINVAL;
	/* Microsoft's table for FAT32 cluster sizes by volume size. */
	g->spc = size <= (260ull << 20)  ? 1
	         : size <= (8ull << 30)  ? 8
	         : size <= (16ull << 30) ? 16
	         : size <= (32ull << 30) ? 32
	                                 : 64;
	if (g->sectors <= RESERVED)
		return -ENOSPC;
	/* The FAT size formula of the specification (section 3.5). */
	uint64_t t1 = g->sectors - RESERVED, t2 = (256ull * g->spc + NFATS) / 2;
	g->fat_sectors = (uint32_t)((t1 + t2 - 1) / t2);
	g->data_start = RESERVED + NFATS * g->fat_sectors;
	if (g->sectors <= g->data_start)
		return -ENOSPC;
	uint64_t clusters = (g->sectors - g->data_start) / g->spc;
	if (clusters < MIN_CLUSTERS)
		return -ENOSPC;
	if (clusters > MAX_CLUSTERS)
		return -EINVAL;
	g->clusters = (uint32_t)clusters;
	return 0;
}

static int valid_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$%&'()-@^_`{}~", c);
}

int bb_fat_short_name(const char *name, char out[11])
{
	const char *dot = strchr(name, '.');
	size_t base = dot ? (size_t)(dot - name) : strlen(name);
	size_t ext = dot ? strlen(dot + 1) : 0;
	if (!base || base > 8 || ext > 3 || (dot && (!ext || strchr(dot + 1, '.'))))
		return 0;
	memset(out, ' ', 11);
	for (size_t i = 0; i < base; i++) {
		if (!name[i] || !valid_char((unsigned char)name[i]))
			return 0;
		out[i] = name[i];
	}
	for (size_t i = 0; i < ext; i++) {
		if (!valid_char((unsigned char)dot[1 + i]))
			return 0;
		out[8 + i] = dot[1 + i];
	}
	if (out[0] == (char)0xe5)
		return 0;
	return 1;
}

static void free_tree(struct node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		free_tree(n->kids[i]);
	free(n->kids);
	free(n);
}

static struct node *add_kid(struct node *dir, const char name[11], int is_dir)
{
	if (bb_grow(&dir->kids, &dir->kids_cap, dir->nkids + 1, sizeof(*dir->kids)))
		return NULL;
	struct node *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	memcpy(n->name, name, 11);
	n->is_dir = is_dir;
	n->parent = dir;
	dir->kids[dir->nkids++] = n;
	return n;
}

static int cmp_nodes(const void *a, const void *b)
{
	return memcmp((*(struct node *const *)a)->name, (*(struct node *const *)b)->name, 11);
}

static void sort_tree(struct node *n)
{
	if (n->nkids)
		qsort(n->kids, n->nkids, sizeof(*n->kids), cmp_nodes);
	for (size_t i = 0; i < n->nkids; i++)
		sort_tree(n->kids[i]);
}

static int build_tree(const struct fat_spec *spec, struct node **out)
{
	struct node *root = calloc(1, sizeof(*root));
	int r = 0;
	if (!root)
		return -ENOMEM;
	root->is_dir = 1;
	for (size_t f = 0; f < spec->nfiles; f++) {
		const char *p = spec->files[f].path;
		struct node *dir = root;
		while (*p == '/')
			p++;
		if (!*p) {
			r = -EINVAL;
			goto out_free;
		}
		for (;;) {
			const char *slash = strchr(p, '/');
			size_t len = slash ? (size_t)(slash - p) : strlen(p);
			char comp[16], name[11];
			if (!len || len >= sizeof(comp)) {
				r = -EINVAL;
				goto out_free;
			}
			memcpy(comp, p, len);
			comp[len] = 0;
			if (!bb_fat_short_name(comp, name)) {
				r = -EINVAL;
				goto out_free;
			}
			struct node *found = NULL;
			for (size_t i = 0; i < dir->nkids; i++)
				if (!memcmp(dir->kids[i]->name, name, 11))
					found = dir->kids[i];
			if (slash) {
				if (found && !found->is_dir) {
					r = -EEXIST;
					goto out_free;
				}
				if (!found && !(found = add_kid(dir, name, 1))) {
					r = -ENOMEM;
					goto out_free;
				}
				dir = found;
				p = slash + 1;
				continue;
			}
			if (found) {
				r = -EEXIST;
				goto out_free;
			}
			if (!(found = add_kid(dir, name, 0))) {
				r = -ENOMEM;
				goto out_free;
			}
			found->file = &spec->files[f];
			break;
		}
	}
	sort_tree(root);
	*out = root;
	return 0;
out_free:
	free_tree(root);
	return r;
}

static uint32_t dir_entries(const struct node *n, int has_label)
{
	return (uint32_t)n->nkids + (n->parent ? 2 : (uint32_t)has_label);
}

/* Give every node its clusters, depth first in name order: each directory's own clusters,
 * then its children's. Returns the clusters used (from cluster 2 on). */
static uint64_t allocate(struct node *n, uint32_t cluster_bytes, int has_label, uint64_t next)
{
	if (n->is_dir) {
		uint64_t bytes = (uint64_t)dir_entries(n, has_label) * 32;
		n->count = (uint32_t)((bytes + cluster_bytes - 1) / cluster_bytes);
		if (!n->count)
			n->count = 1;
	} else {
		n->count = (uint32_t)((n->file->len + cluster_bytes - 1) / cluster_bytes);
	}
	n->first = n->count ? (uint32_t)next : 0;
	next += n->count;
	for (size_t i = 0; n->is_dir && i < n->nkids; i++)
		next = allocate(n->kids[i], cluster_bytes, has_label, next);
	return next;
}

static void dos_time(uint32_t t, uint16_t *date, uint16_t *tim)
{
	time_t tt = t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	if (tm.tm_year < 80) {
		*date = (1 << 5) | 1; /* 1980-01-01 00:00:00 */
		*tim = 0;
		return;
	}
	if (tm.tm_year > 207) {
		tm.tm_year = 207, tm.tm_mon = 11, tm.tm_mday = 31;
		tm.tm_hour = 23, tm.tm_min = 59, tm.tm_sec = 58;
	}
	*date = (uint16_t)((tm.tm_year - 80) << 9 | (tm.tm_mon + 1) << 5 | tm.tm_mday);
	*tim = (uint16_t)(tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec / 2);
}

static void dir_entry(uint8_t *e, const char name[11], uint8_t attr, uint32_t cluster,
                      uint32_t size, uint16_t date, uint16_t tim)
{
	memcpy(e, name, 11);
	e[11] = attr;
	bb_le_put16(e + 14, tim);
	bb_le_put16(e + 16, date);
	bb_le_put16(e + 18, date);
	bb_le_put16(e + 20, (uint16_t)(cluster >> 16));
	bb_le_put16(e + 22, tim);
	bb_le_put16(e + 24, date);
	bb_le_put16(e + 26, (uint16_t)cluster);
	bb_le_put32(e + 28, size);
}

struct writer {
	int fd;
	uint64_t offset;
	const struct fat_spec *spec;
	const struct geometry *g;
	uint32_t *fat;
	uint16_t date, tim;
	char label[11];
	int has_label;
};

static uint64_t cluster_offset(const struct writer *w, uint32_t c)
{
	return w->offset + ((uint64_t)w->g->data_start + (uint64_t)(c - 2) * w->g->spc) * SECTOR;
}

static int write_node(struct writer *w, const struct node *n)
{
	uint32_t cluster_bytes = w->g->spc * SECTOR;
	int r;
	for (uint32_t i = 0; i < n->count; i++)
		w->fat[n->first + i] = i + 1 < n->count ? n->first + i + 1 : FAT_EOC;
	if (!n->is_dir) {
		if (!n->count)
			return 0;
		if ((r = bb_fileio_pwrite_all(w->fd, n->file->data, n->file->len,
		                              cluster_offset(w, n->first))))
			return r;
		size_t tail = (size_t)((uint64_t)n->count * cluster_bytes - n->file->len);
		if (tail) {
			uint8_t *zero = calloc(1, tail);
			if (!zero)
				return -ENOMEM;
			r = bb_fileio_pwrite_all(w->fd, zero, tail,
			                         cluster_offset(w, n->first) + n->file->len);
			free(zero);
		}
		return r;
	}
	size_t len = (size_t)n->count * cluster_bytes;
	uint8_t *buf = calloc(1, len), *e = buf;
	if (!buf)
		return -ENOMEM;
	if (n->parent) {
		char dot[11], dotdot[11];
		memset(dot, ' ', 11);
		memset(dotdot, ' ', 11);
		dot[0] = dotdot[0] = dotdot[1] = '.';
		dir_entry(e, dot, ATTR_DIRECTORY, n->first, 0, w->date, w->tim);
		/* ".." of a directory in the root points to cluster 0, as the specification says.
		 */
		dir_entry(e + 32, dotdot, ATTR_DIRECTORY, n->parent->parent ? n->parent->first : 0,
		          0, w->date, w->tim);
		e += 64;
	} else if (w->has_label) {
		dir_entry(e, w->label, ATTR_VOLUME_ID, 0, 0, w->date, w->tim);
		e += 32;
	}
	for (size_t i = 0; i < n->nkids; i++, e += 32) {
		const struct node *k = n->kids[i];
		dir_entry(e, k->name, k->is_dir ? ATTR_DIRECTORY : ATTR_ARCHIVE, k->first,
		          k->is_dir ? 0 : (uint32_t)k->file->len, w->date, w->tim);
	}
	r = bb_fileio_pwrite_all(w->fd, buf, len, cluster_offset(w, n->first));
	free(buf);
	for (size_t i = 0; !r && i < n->nkids; i++)
		r = write_node(w, n->kids[i]);
	return r;
}

static int label_field(const char *label, char out[11])
{
	memset(out, ' ', 11);
	if (!label || !*label)
		return 0;
	size_t n = strlen(label);
	if (n > 11)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (label[i] != ' ' && !valid_char((unsigned char)label[i]))
			return -EINVAL;
		out[i] = label[i];
	}
	return 1;
}

int bb_fat_write(int fd, uint64_t offset, const struct fat_spec *spec)
{
	struct geometry g;
	struct node *root;
	struct writer w = {.fd = fd, .offset = offset, .spec = spec, .g = &g};
	int r;

	if ((r = geometry(spec->size, &g)))
		return r;
	if ((r = label_field(spec->label, w.label)) < 0)
		return r;
	w.has_label = r;
	for (size_t i = 0; i < spec->nfiles; i++)
		if (spec->files[i].len > 0xffffffffu)
			return -EFBIG;
	if ((r = build_tree(spec, &root)))
		return r;
	uint64_t end = allocate(root, g.spc * SECTOR, w.has_label, 2);
	if (end > (uint64_t)g.clusters + 2) {
		r = -ENOSPC;
		goto out_tree;
	}
	dos_time(spec->mtime, &w.date, &w.tim);

	size_t fat_len = (size_t)g.fat_sectors * SECTOR;
	uint8_t *fatbuf = NULL, *reserved = calloc(RESERVED, SECTOR);
	if (!reserved || !(w.fat = calloc(fat_len / 4, 4))) {
		r = -ENOMEM;
		goto out_buffers;
	}
	w.fat[0] = 0x0ffffff8; /* media descriptor 0xF8 */
	w.fat[1] = FAT_EOC;    /* clean, no I/O errors */
	if ((r = write_node(&w, root)))
		goto out_buffers;

	/* Boot sector (BPB) */
	uint8_t *b = reserved;
	b[0] = 0xeb, b[1] = 0x58, b[2] = 0x90;
	memcpy(b + 3, "BENCHBT ", 8);
	bb_le_put16(b + 11, SECTOR);
	b[13] = (uint8_t)g.spc;
	bb_le_put16(b + 14, RESERVED);
	b[16] = NFATS;
	b[21] = 0xf8;
	bb_le_put16(b + 24, 32); /* sectors per track, heads: nominal geometry */
	bb_le_put16(b + 26, 64);
	bb_le_put32(b + 28, spec->hidden_sectors);
	bb_le_put32(b + 32, (uint32_t)g.sectors);
	bb_le_put32(b + 36, g.fat_sectors);
	bb_le_put32(b + 44, root->first);
	bb_le_put16(b + 48, 1); /* FSInfo */
	bb_le_put16(b + 50, 6); /* backup boot sector */
	b[64] = 0x80;
	b[66] = 0x29;
	bb_le_put32(b + 67, spec->volume_id);
	memcpy(b + 71, w.has_label ? w.label : "NO NAME    ", 11);
	memcpy(b + 82, "FAT32   ", 8);
	b[510] = 0x55, b[511] = 0xaa;
	/* FSInfo */
	uint8_t *fi = reserved + SECTOR;
	bb_le_put32(fi, 0x41615252);
	bb_le_put32(fi + 484, 0x61417272);
	bb_le_put32(fi + 488, (uint32_t)(g.clusters + 2 - end));
	bb_le_put32(fi + 492, (uint32_t)end);
	bb_le_put32(fi + 508, 0xaa550000);
	memcpy(reserved + 6 * SECTOR, reserved, 2 * SECTOR);
	if ((r = bb_fileio_pwrite_all(fd, reserved, RESERVED * SECTOR, offset)))
		goto out_buffers;

	fatbuf = (uint8_t *)w.fat;
	for (size_t i = 0; i < fat_len / 4; i++)
		bb_le_put32(fatbuf + 4 * i, w.fat[i]);
	for (int f = 0; f < NFATS && !r; f++)
		r = bb_fileio_pwrite_all(fd, fatbuf, fat_len,
		                         offset +
		                             (uint64_t)(RESERVED + f * g.fat_sectors) * SECTOR);
out_buffers:
	free(reserved);
	free(w.fat);
out_tree:
	free_tree(root);
	return r;
}

uint64_t bb_fat_min_size(const struct fat_spec *spec)
{
	struct node *root;
	char label[11];
	int has_label = label_field(spec->label, label) > 0;
	if (build_tree(spec, &root))
		return 0;
	uint64_t size = 34ull << 20;
	for (;; size += 1ull << 20) {
		struct geometry g;
		int r = geometry(size, &g);
		if (r == -EINVAL)
			break;
		if (r)
			continue;
		if (allocate(root, g.spc * SECTOR, has_label, 2) <= (uint64_t)g.clusters + 2)
			break;
	}
	free_tree(root);
	return size;
}

/*
 * The results disk through libext2fs (see resdisk.h and docs/results.md).
 *
 * Crash safety rests on three habits:
 *  - a file's data and inode reach the device (io_channel_flush = fsync) before any final name
 *    points to it; until then it lives under a temporary name that collect ignores;
 *  - an inode replaced by a newer version is freed only after the directory change is on the
 *    device, so its blocks cannot be reused while an old entry might still point to them;
 *  - while a writer has the disk open, the superblock says "not clean" on the device, so a crash
 *    is noticed: the next writer refuses the disk and `e2fsck -p` does a full check.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ext2fs/ext2_err.h>
#include <ext2fs/ext2fs.h>

#include "results/resdisk.h"
#include "grow.h"

struct pending {
	ext2_ino_t dir, ino;
	char name[EXT2_NAME_LEN + 1];
};

struct resdisk {
	ext2_filsys fs;
	int rw;
	int unclean;
	unsigned backup_sb;
	int marker_err;
	char id[RESDISK_ID_LEN + 1];
	struct pending *to_free; /* replaced versions, dropped at the next bb_resdisk_flush */
	size_t nfree, cap_free;
};

static errcode_t last_ext2_err;

static int err_from_ext2(errcode_t e)
{
	if (!e)
		return 0;
	last_ext2_err = e;
	if (e > 0 && e < 256)
		return -(int)e; /* libext2fs passes system errors through as errno values */
	switch (e) {
	case EXT2_ET_BLOCK_ALLOC_FAIL:
	case EXT2_ET_INODE_ALLOC_FAIL:
	case EXT2_ET_DIR_NO_SPACE:
	case EXT2_ET_EA_NO_SPACE:
	case EXT2_ET_RES_GDT_BLOCKS:
		return -ENOSPC;
	case EXT2_ET_NO_MEMORY:
		return -ENOMEM;
	case EXT2_ET_FILE_NOT_FOUND:
		return -ENOENT;
	case EXT2_ET_NO_DIRECTORY:
		return -ENOTDIR;
	case EXT2_ET_DIR_EXISTS:
	case EXT2_ET_FILE_EXISTS:
		return -EEXIST;
	case EXT2_ET_RO_FILSYS:
		return -EROFS;
	case EXT2_ET_FILE_TOO_BIG:
		return -EFBIG;
	case EXT2_ET_BAD_MAGIC:
		return -EMEDIUMTYPE;
	case EXT2_ET_UNSUPP_FEATURE:
	case EXT2_ET_RO_UNSUPP_FEATURE:
	case EXT2_ET_UNIMPLEMENTED:
		return -EOPNOTSUPP;
	case EXT2_ET_SHORT_READ:
	case EXT2_ET_SHORT_WRITE:
		return -EIO;
	default:
		return -EUCLEAN; /* corrupted metadata, checksum errors, ... */
	}
}

const char *bb_resdisk_strerror(int err)
{
	static char buf[256];
	static int table_added;

	if (!last_ext2_err || err_from_ext2(last_ext2_err) != err)
		return strerror(-err);
	if (!table_added) {
		initialize_ext2_error_table();
		table_added = 1;
	}
	snprintf(buf, sizeof(buf), "%s (%s)", strerror(-err), error_message(last_ext2_err));
	return buf;
}

/* A quick look at the raw superblock, so disks that are not ours never reach libext2fs. */
int bb_resdisk_check_label(const char *path)
{
	unsigned char sb[1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = pread(fd, sb, sizeof(sb), 1024);
	int saved = errno;
	close(fd);
	if (n < 0)
		return -saved;
	if (n < (ssize_t)sizeof(sb))
		return -EMEDIUMTYPE;
	if (sb[56] != 0x53 || sb[57] != 0xef) /* s_magic, little endian */
		return -EMEDIUMTYPE;
	char label[17];
	memcpy(label, sb + 120, 16); /* s_volume_name */
	label[16] = 0;
	if (strcmp(label, RESDISK_LABEL))
		return -EMEDIUMTYPE;
	return 0;
}

static int is_hex_id(const char *s, size_t len)
{
	if (len != RESDISK_ID_LEN)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int read_inode(ext2_filsys fs, ext2_ino_t ino, struct ext2_inode *inode)
{
	if (ino < EXT2_ROOT_INO || ino > fs->super->s_inodes_count)
		return -EUCLEAN;
	return err_from_ext2(ext2fs_read_inode(fs, ino, inode));
}

/* Read a small regular file of the root directory into buf (NUL-terminated). */
static int read_small_root_file(ext2_filsys fs, const char *name, char *buf, size_t cap)
{
	ext2_ino_t ino;
	struct ext2_inode inode;
	ext2_file_t f;
	unsigned int got = 0;
	int r = err_from_ext2(ext2fs_lookup(fs, EXT2_ROOT_INO, name, strlen(name), NULL, &ino));
	if (r)
		return r;
	if ((r = read_inode(fs, ino, &inode)))
		return r;
	if (!LINUX_S_ISREG(inode.i_mode) || EXT2_I_SIZE(&inode) >= cap)
		return -EMEDIUMTYPE;
	if ((r = err_from_ext2(ext2fs_file_open(fs, ino, 0, &f))))
		return r;
	r = err_from_ext2(ext2fs_file_read(f, buf, EXT2_I_SIZE(&inode), &got));
	ext2fs_file_close(f);
	if (r)
		return r;
	if (got != EXT2_I_SIZE(&inode))
		return -EIO;
	buf[got] = 0;
	return 0;
}

/* The marker: "benchboot-results-disk 1\nid=HEX\n". Returns 0 with the id, or -EMEDIUMTYPE. */
static int read_marker(ext2_filsys fs, char id[RESDISK_ID_LEN + 1])
{
	char buf[512];
	int r = read_small_root_file(fs, RESDISK_MARKER, buf, sizeof(buf));
	if (r == -ENOENT)
		return -EMEDIUMTYPE;
	if (r)
		return r;
	size_t ml = strlen(RESDISK_MARKER_MAGIC);
	if (strncmp(buf, RESDISK_MARKER_MAGIC "\nid=", ml + 4))
		return -EMEDIUMTYPE;
	const char *hex = buf + ml + 4;
	const char *nl = strchr(hex, '\n');
	if (!nl || !is_hex_id(hex, nl - hex))
		return -EMEDIUMTYPE;
	memcpy(id, hex, RESDISK_ID_LEN);
	id[RESDISK_ID_LEN] = 0;
	return 0;
}

/* unix_io when NULL; the unit tests put a recording manager here (every write, every flush). */
io_manager resdisk_io_manager;

static int open_fs_at(const char *path, int rw, int sb, int bs, ext2_filsys *fs)
{
	int flags = EXT2_FLAG_64BITS;
	if (rw)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	*fs = NULL;
	errcode_t e = ext2fs_open2(path, NULL, flags, sb, bs,
	                           resdisk_io_manager ? resdisk_io_manager : unix_io_manager, fs);
	if (e) {
		*fs = NULL;
		return err_from_ext2(e);
	}
	return 0;
}

static int open_fs(const char *path, int rw, ext2_filsys *fs)
{
	return open_fs_at(path, rw, 0, 0, fs);
}

/* Read-only: when the primary superblock is damaged, try the first backup of each block size. */
static int open_fs_backup(const char *path, ext2_filsys *fs, unsigned *used)
{
	static const struct {
		int sb, bs;
	} backups[] = {{32768, 4096}, {8193, 1024}, {16384, 2048}};
	int r = open_fs(path, 0, fs);
	*used = 0;
	if (r != -EUCLEAN && r != -EMEDIUMTYPE && r != -EIO)
		return r;
	for (size_t i = 0; i < sizeof(backups) / sizeof(backups[0]); i++)
		if (!open_fs_at(path, 0, backups[i].sb, backups[i].bs, fs)) {
			*used = (unsigned)backups[i].sb;
			return 0;
		}
	return r;
}

int bb_resdisk_probe(const char *path, char id[RESDISK_ID_LEN + 1])
{
	ext2_filsys fs;
	int r = bb_resdisk_check_label(path);
	if (r)
		return r;
	if ((r = open_fs(path, 0, &fs)))
		return r == -EUCLEAN || r == -EOPNOTSUPP ? -EMEDIUMTYPE : r;
	r = read_marker(fs, id);
	ext2fs_free(fs);
	return r;
}

static int fs_unclean(ext2_filsys fs)
{
	return !(fs->super->s_state & EXT2_VALID_FS) || (fs->super->s_state & EXT2_ERROR_FS) ||
	       ext2fs_has_feature_journal_needs_recovery(fs->super);
}

int bb_resdisk_open(const char *path, enum resdisk_mode mode, struct resdisk **out)
{
	int r;

	*out = NULL;
	/* one open only (each costs tens of ms on a slow disk): the label first, raw */
	if (mode == RESDISK_WRITE && (r = bb_resdisk_check_label(path)))
		return r;
	struct resdisk *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->rw = mode == RESDISK_WRITE;
	r = d->rw ? open_fs(path, 1, &d->fs) : open_fs_backup(path, &d->fs, &d->backup_sb);
	if (r && d->rw && (r == -EUCLEAN || r == -EOPNOTSUPP))
		r = -EMEDIUMTYPE; /* as the probe said of such a filesystem */
	if (r)
		goto out_free;
	d->unclean = fs_unclean(d->fs);
	if (!d->rw) {
		if ((d->marker_err = read_marker(d->fs, d->id)))
			d->id[0] = 0;
		if (d->backup_sb)
			d->unclean = 0; /* backups always say "not clean": unknown */
		*out = d;
		return 0;
	}
	/* the marker, through this open: nothing has been written yet */
	if ((r = read_marker(d->fs, d->id)))
		goto out_close;
	if (d->unclean) {
		r = -EUCLEAN;
		goto out_close;
	}
	if ((r = err_from_ext2(ext2fs_read_bitmaps(d->fs))))
		goto out_close;
	d->fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(d->fs);
	if ((r = err_from_ext2(ext2fs_flush(d->fs))))
		goto out_close;
	*out = d;
	return 0;
out_close:
	ext2fs_free(d->fs); /* nothing written: do not let close flush anything */
out_free:
	free(d);
	return r;
}

const char *bb_resdisk_id(const struct resdisk *d)
{
	return d->id;
}

int bb_resdisk_marker_error(const struct resdisk *d)
{
	return d->marker_err;
}

int bb_resdisk_unclean(const struct resdisk *d)
{
	return d->unclean;
}

unsigned bb_resdisk_backup_superblock(const struct resdisk *d)
{
	return d->backup_sb;
}

/* Split off the next component of *p; returns its length (0 at the end), -EINVAL if bad. */
static int next_component(const char **p, const char **name)
{
	const char *s = *p;
	while (*s == '/')
		s++;
	const char *e = s;
	while (*e && *e != '/')
		e++;
	*name = s;
	*p = e;
	size_t len = e - s;
	if (len > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return -EINVAL;
	return (int)len;
}

/* Look a directory up, component by component, never following a symbolic link. */
static int lookup_dir(ext2_filsys fs, const char *path, ext2_ino_t *out)
{
	ext2_ino_t dir = EXT2_ROOT_INO;
	const char *p = path, *name;
	int len;
	while ((len = next_component(&p, &name)) > 0) {
		ext2_ino_t ino;
		struct ext2_inode inode;
		int r = err_from_ext2(ext2fs_lookup(fs, dir, name, len, NULL, &ino));
		if (r)
			return r;
		if ((r = read_inode(fs, ino, &inode)))
			return r;
		if (LINUX_S_ISLNK(inode.i_mode))
			return -ELOOP;
		if (!LINUX_S_ISDIR(inode.i_mode))
			return -ENOTDIR;
		dir = ino;
	}
	if (len < 0)
		return len;
	*out = dir;
	return 0;
}

/*
 * Ordering. libext2fs writes through a cache and the kernel writes back in any order, so of
 * all the writes between two barriers (io_channel_flush: fsync) any subset may be on the
 * device after a crash. Each step below is chosen so that every such subset is either
 * consistent or something `e2fsck -p` repairs on its own: a directory entry pointing to an
 * inode with no links (entry cleared), wrong link counts, bitmaps and counters. What preen
 * mode does not repair, and what therefore must never reach the device, is an inode that
 * claims links (or a directory) with no entry pointing to it, and a directory whose size
 * covers a block that was never written.
 */
static int barrier(ext2_filsys fs)
{
	return err_from_ext2(io_channel_flush(fs->io));
}

/* Add a block to a directory: the empty block is on the device before the inode covers it. */
static int grow_dir(ext2_filsys fs, ext2_ino_t dir)
{
	struct ext2_inode inode;
	blk64_t blk;
	char *block;
	int r = read_inode(fs, dir, &inode);
	if (r)
		return r;
	if (inode.i_flags & (EXT2_INDEX_FL | EXT4_INLINE_DATA_FL))
		return err_from_ext2(ext2fs_expand_dir(fs, dir));
	blk64_t lblk = EXT2_I_SIZE(&inode) / fs->blocksize;
	if ((r = err_from_ext2(
	         ext2fs_new_block2(fs, ext2fs_find_inode_goal(fs, dir, &inode, lblk), NULL, &blk))))
		return r;
	if ((r = err_from_ext2(ext2fs_new_dir_block(fs, 0, 0, &block))))
		return r;
	r = err_from_ext2(ext2fs_write_dir_block4(fs, blk, block, 0, dir));
	ext2fs_free_mem(&block);
	if (r || (r = barrier(fs)))
		return r;
	ext2fs_block_alloc_stats2(fs, blk, +1);
	if ((r = err_from_ext2(ext2fs_bmap2(fs, dir, &inode, NULL, BMAP_SET, lblk, NULL, &blk))))
		return r;
	if ((r = read_inode(fs, dir, &inode))) /* bmap may have written it */
		return r;
	if ((r = err_from_ext2(ext2fs_inode_size_set(fs, &inode, (lblk + 1) * fs->blocksize))))
		return r;
	ext2fs_iblk_add_blocks(fs, &inode, 1);
	return err_from_ext2(ext2fs_write_inode(fs, dir, &inode));
}

static int add_entry(ext2_filsys fs, ext2_ino_t dir, const char *name, ext2_ino_t ino, int type)
{
	errcode_t e = ext2fs_link(fs, dir, name, ino, type);
	if (e == EXT2_ET_DIR_NO_SPACE) {
		int r = grow_dir(fs, dir);
		if (r)
			return r;
		e = ext2fs_link(fs, dir, name, ino, type);
	}
	return err_from_ext2(e);
}

static int set_links(ext2_filsys fs, ext2_ino_t ino, int links)
{
	struct ext2_inode inode;
	int r = read_inode(fs, ino, &inode);
	if (r)
		return r;
	inode.i_links_count = links;
	inode.i_dtime = links ? 0 : time(NULL);
	return err_from_ext2(ext2fs_write_inode(fs, ino, &inode));
}

static int release_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt, blk64_t ref_block,
                         int ref_offset, void *priv)
{
	blk64_t *last_cluster = priv, cluster = EXT2FS_B2C(fs, *blocknr);
	if (cluster == *last_cluster)
		return 0;
	*last_cluster = cluster;
	ext2fs_block_alloc_stats2(fs, *blocknr, -1);
	return 0;
}

/*
 * Give back the blocks and the inode of a file that no entry points to and whose zero link
 * count is on the device (or that never had an entry). Its blocks are found through its extent
 * tree, as debugfs's kill_file does: ext2fs_punch of 1.47.0 refuses an extent ending on the last
 * block of the filesystem, which is exactly where a write that filled the disk ends.
 */
static int release_inode(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_inode inode;
	int r = read_inode(fs, ino, &inode);
	if (r)
		return r;
	if (ext2fs_inode_has_valid_blocks2(fs, &inode)) {
		blk64_t last_cluster = ~0ULL;
		r = err_from_ext2(ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
		                                        release_block, &last_cluster));
		if (r)
			return r;
	}
	if (inode.i_links_count || !inode.i_dtime) {
		inode.i_links_count = 0;
		inode.i_dtime = time(NULL);
		if ((r = err_from_ext2(ext2fs_write_inode(fs, ino, &inode))))
			return r;
	}
	ext2fs_inode_alloc_stats2(fs, ino, -1, LINUX_S_ISDIR(inode.i_mode));
	return 0;
}

/* Remove entry name -> ino of dir and free ino: its zero link count is on the device first. */
static int drop_entry(ext2_filsys fs, ext2_ino_t dir, const char *name, ext2_ino_t ino)
{
	int r = set_links(fs, ino, 0);
	if (!r)
		r = barrier(fs);
	if (!r)
		r = err_from_ext2(ext2fs_unlink(fs, dir, name, ino, 0));
	if (!r)
		r = release_inode(fs, ino);
	return r;
}

/*
 * mkdir in three steps: the directory block and the inode with no links yet; the parent's entry
 * (alone, preen clears it); the link counts, on the device before anything goes into the new
 * directory.
 */
static int make_dir(ext2_filsys fs, ext2_ino_t parent, const char *name, ext2_ino_t *out)
{
	struct ext2_inode inode, pinode;
	ext2_ino_t ino;
	blk64_t blk;
	char *block;
	int r = err_from_ext2(ext2fs_new_inode(fs, parent, LINUX_S_IFDIR | 0755, NULL, &ino));
	if (r)
		return r;
	memset(&inode, 0, sizeof(inode));
	if ((r = err_from_ext2(
	         ext2fs_new_block2(fs, ext2fs_find_inode_goal(fs, ino, &inode, 0), NULL, &blk))))
		return r;
	if ((r = err_from_ext2(ext2fs_new_dir_block(fs, ino, parent, &block))))
		return r;
	r = err_from_ext2(ext2fs_write_dir_block4(fs, blk, block, 0, ino));
	ext2fs_free_mem(&block);
	if (r)
		return r;
	inode.i_mode = LINUX_S_IFDIR | 0755;
	inode.i_atime = inode.i_ctime = inode.i_mtime = time(NULL);
	inode.i_links_count = 0;
	inode.i_dtime = 0;
	ext2fs_iblk_set(fs, &inode, 1);
	if (ext2fs_has_feature_extents(fs->super))
		inode.i_flags |= EXT4_EXTENTS_FL;
	else
		inode.i_block[0] = blk;
	if ((r = err_from_ext2(ext2fs_inode_size_set(fs, &inode, fs->blocksize))) ||
	    (r = err_from_ext2(ext2fs_write_new_inode(fs, ino, &inode))))
		return r;
	if (ext2fs_has_feature_extents(fs->super)) {
		ext2_extent_handle_t h;
		if ((r = err_from_ext2(ext2fs_extent_open2(fs, ino, &inode, &h))))
			return r;
		r = err_from_ext2(ext2fs_extent_set_bmap(h, 0, blk, 0));
		ext2fs_extent_free(h);
		if (r)
			return r;
	}
	ext2fs_block_alloc_stats2(fs, blk, +1);
	ext2fs_inode_alloc_stats2(fs, ino, +1, 1);
	/* the inode before the entry: e2fsck -p cannot repair an entry whose filetype disagrees
	 * with a never-written inode (one beyond the group's last initialised inode) */
	if ((r = barrier(fs)) || (r = add_entry(fs, parent, name, ino, EXT2_FT_DIR)) ||
	    (r = barrier(fs)))
		return r;
	if ((r = set_links(fs, ino, 2)) || (r = read_inode(fs, parent, &pinode)))
		return r;
	if (pinode.i_links_count < EXT2_LINK_MAX - 1)
		pinode.i_links_count++;
	if ((r = err_from_ext2(ext2fs_write_inode(fs, parent, &pinode))) || (r = barrier(fs)))
		return r;
	*out = ino;
	return 0;
}

int bb_resdisk_mkdir_p(struct resdisk *d, const char *path)
{
	ext2_filsys fs = d->fs;
	ext2_ino_t dir = EXT2_ROOT_INO;
	const char *p = path, *name;
	int len;
	char cname[EXT2_NAME_LEN + 1];

	if (!d->rw)
		return -EROFS;
	while ((len = next_component(&p, &name)) > 0) {
		ext2_ino_t ino;
		struct ext2_inode inode;
		int r;
		if (name[0] == '.')
			return -EINVAL;
		errcode_t e = ext2fs_lookup(fs, dir, name, len, NULL, &ino);
		if (e == EXT2_ET_FILE_NOT_FOUND) {
			memcpy(cname, name, len);
			cname[len] = 0;
			if ((r = make_dir(fs, dir, cname, &ino)))
				return r;
		} else if ((r = err_from_ext2(e))) {
			return r;
		}
		if ((r = read_inode(fs, ino, &inode)))
			return r;
		if (!LINUX_S_ISDIR(inode.i_mode))
			return -ENOTDIR;
		dir = ino;
	}
	return len;
}

/*
 * Exchange the inodes of entries a and b of dir when both are in one directory block: the block
 * is written once, so the device has either both old entries or both new ones. *done is 0 when
 * they are in different blocks (nothing changed).
 */
struct pair {
	const char *a, *b;
	size_t alen, blen;
	int block, last_offset, target; /* target: the block to change (-1: first pass) */
	int block_a, block_b, changed;
	ext2_ino_t ino_a, ino_b;
};

static int pair_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *dirent, int offset,
                      int blocksize, char *buf, void *priv)
{
	struct pair *pr = priv;
	size_t len = (size_t)ext2fs_dirent_name_len(dirent);
	int is_a, is_b;
	if (offset <= pr->last_offset)
		pr->block++;
	pr->last_offset = offset;
	if (!dirent->inode)
		return 0;
	is_a = len == pr->alen && !memcmp(dirent->name, pr->a, len);
	is_b = !is_a && len == pr->blen && !memcmp(dirent->name, pr->b, len);
	if (!is_a && !is_b)
		return 0;
	if (pr->target < 0) {
		if (is_a) {
			pr->block_a = pr->block;
			pr->ino_a = dirent->inode;
		} else {
			pr->block_b = pr->block;
			pr->ino_b = dirent->inode;
		}
		return 0;
	}
	if (pr->block != pr->target)
		return 0;
	dirent->inode = is_a ? pr->ino_b : pr->ino_a;
	/* the block is written after its last callback, aborted or not: once for both */
	return ++pr->changed == 2 ? DIRENT_CHANGED | DIRENT_ABORT : DIRENT_CHANGED;
}

static int swap_entries(ext2_filsys fs, ext2_ino_t dir, const char *a, const char *b, int *done)
{
	struct pair pr = {.a = a,
	                  .b = b,
	                  .alen = strlen(a),
	                  .blen = strlen(b),
	                  .last_offset = -1,
	                  .target = -1,
	                  .block_a = -1,
	                  .block_b = -2};
	int r = err_from_ext2(ext2fs_dir_iterate2(fs, dir, 0, NULL, pair_entry, &pr));
	*done = 0;
	if (r)
		return r;
	if (!pr.ino_a || !pr.ino_b)
		return -ENOENT;
	if (pr.block_a != pr.block_b)
		return 0;
	pr.target = pr.block_a;
	pr.block = 0;
	pr.last_offset = -1;
	if ((r = err_from_ext2(ext2fs_dir_iterate2(fs, dir, 0, NULL, pair_entry, &pr))))
		return r;
	if (pr.changed != 2)
		return -EIO; /* the directory changed under us: cannot happen in one writer */
	*done = 1;
	return 0;
}

struct retarget {
	const char *name;
	size_t len;
	ext2_ino_t ino;
	int done;
};

static int retarget_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *dirent, int offset,
                          int blocksize, char *buf, void *priv)
{
	struct retarget *rt = priv;
	if (!dirent->inode || (size_t)ext2fs_dirent_name_len(dirent) != rt->len ||
	    memcmp(dirent->name, rt->name, rt->len))
		return 0;
	dirent->inode = rt->ino;
	rt->done = 1;
	return DIRENT_CHANGED | DIRENT_ABORT;
}

/* Make the existing entry `name` of dir point to ino, in one directory-block write. */
static int retarget(ext2_filsys fs, ext2_ino_t dir, const char *name, ext2_ino_t ino)
{
	struct retarget rt = {.name = name, .len = strlen(name), .ino = ino};
	int r = err_from_ext2(ext2fs_dir_iterate2(fs, dir, 0, NULL, retarget_entry, &rt));
	if (r)
		return r;
	return rt.done ? 0 : -ENOENT;
}

static int defer_release(struct resdisk *d, ext2_ino_t dir, const char *name, ext2_ino_t ino)
{
	if (bb_grow(&d->to_free, &d->cap_free, d->nfree + 1, sizeof(*d->to_free)))
		return -ENOMEM;
	struct pending *p = &d->to_free[d->nfree];
	p->dir = dir;
	p->ino = ino;
	snprintf(p->name, sizeof(p->name), "%s", name);
	d->nfree++;
	return 0;
}

typedef ssize_t (*reader_fn)(void *ctx, void *buf, size_t len);

/* A new regular file with no links and no entry yet (a crash leaves a deleted inode). */
static int new_file(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t *out)
{
	ext2_ino_t ino;
	struct ext2_inode inode;
	int r = err_from_ext2(ext2fs_new_inode(fs, dir, LINUX_S_IFREG | 0644, NULL, &ino));
	if (r)
		return r;
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_atime = inode.i_ctime = inode.i_mtime = time(NULL);
	inode.i_links_count = 0; /* 1 once the data and an entry are on the device */
	if (ext2fs_has_feature_extents(fs->super)) {
		ext2_extent_handle_t h;
		/* extent_open2 on a zeroed inode writes an empty extent header into it */
		if ((r = err_from_ext2(ext2fs_extent_open2(fs, ino, &inode, &h))))
			return r;
		ext2fs_extent_free(h);
	}
	if ((r = err_from_ext2(ext2fs_write_new_inode(fs, ino, &inode))))
		return r;
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	*out = ino;
	return 0;
}

static int copy_in(ext2_filsys fs, ext2_ino_t ino, reader_fn rd, void *ctx, uint64_t *written)
{
	ext2_file_t f;
	static char buf[65536];
	uint64_t total = 0;
	int r = err_from_ext2(ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &f));
	if (r)
		return r;
	for (;;) {
		ssize_t n = rd(ctx, buf, sizeof(buf));
		if (n < 0) {
			r = (int)n;
			break;
		}
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			unsigned int got = 0;
			r = err_from_ext2(ext2fs_file_write(f, buf + off, n - off, &got));
			if (r)
				break;
			if (!got) {
				r = -EIO;
				break;
			}
			off += got;
			total += got;
		}
		if (r)
			break;
	}
	int rc = err_from_ext2(ext2fs_file_close(f));
	if (!r)
		r = rc;
	if (written)
		*written = total;
	return r;
}

/*
 * A whole file, crash-safe (see "Ordering" above):
 *   new inode N without links or entry, and its data                  barrier
 *   new NAME:  entry NAME -> N; barrier; N gets its link (on the device at the next barrier;
 *              before that a crash leaves an entry to an unlinked inode, which preen clears)
 *   existing NAME -> O:  entry TMP -> N; barrier; N gets its link; barrier (N is whole under
 *              TMP); NAME and TMP exchange inodes in one block write; O, now under TMP, is
 *              dropped at the next bb_resdisk_flush. If they are in different blocks: O loses its
 *              link, barrier, NAME -> N, barrier, TMP removed, O freed.
 */
static int write_file(struct resdisk *d, const char *path, reader_fn rd, void *ctx,
                      uint64_t *written)
{
	ext2_filsys fs = d->fs;
	char dirpath[4096], tmp[EXT2_NAME_LEN + 1];
	ext2_ino_t dir, ino, old, existing;
	int r, swapped;

	if (!d->rw)
		return -EROFS;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t dlen = base - path, blen = strlen(base);
	if (dlen >= sizeof(dirpath))
		return -ENAMETOOLONG;
	if (!blen || base[0] == '.')
		return -EINVAL;
	if (blen + strlen(RESDISK_TMP_PREFIX) > EXT2_NAME_LEN)
		return -ENAMETOOLONG;
	memcpy(dirpath, path, dlen);
	dirpath[dlen] = 0;
	snprintf(tmp, sizeof(tmp), "%s%s", RESDISK_TMP_PREFIX, base);
	if ((r = lookup_dir(fs, dirpath, &dir)))
		return r;

	/* a temporary left by an earlier failure, kept whole by e2fsck after a crash, or an old
	 * version waiting for bb_resdisk_flush */
	if (!ext2fs_lookup(fs, dir, tmp, strlen(tmp), NULL, &old)) {
		for (size_t i = 0; i < d->nfree; i++)
			if (d->to_free[i].dir == dir && d->to_free[i].ino == old)
				d->to_free[i] = d->to_free[--d->nfree];
		if ((r = drop_entry(fs, dir, tmp, old)))
			return r;
	}
	errcode_t e = ext2fs_lookup(fs, dir, base, blen, NULL, &existing);
	if (e && e != EXT2_ET_FILE_NOT_FOUND)
		return err_from_ext2(e);
	if (!e) {
		struct ext2_inode inode;
		if ((r = read_inode(fs, existing, &inode)))
			return r;
		if (!LINUX_S_ISREG(inode.i_mode))
			return LINUX_S_ISDIR(inode.i_mode) ? -EISDIR : -EEXIST;
	}

	if ((r = new_file(fs, dir, &ino)))
		return r;
	if ((r = copy_in(fs, ino, rd, ctx, written)) || (r = barrier(fs)))
		goto out_release;
	if (e) {
		if ((r = add_entry(fs, dir, base, ino, EXT2_FT_REG_FILE)))
			goto out_release;
		if ((r = barrier(fs)))
			return r;
		return set_links(fs, ino, 1);
	}
	if ((r = add_entry(fs, dir, tmp, ino, EXT2_FT_REG_FILE)))
		goto out_release;
	if ((r = barrier(fs)) || (r = set_links(fs, ino, 1)) || (r = barrier(fs)))
		return r;
	if ((r = swap_entries(fs, dir, base, tmp, &swapped)))
		return r;
	if (swapped)
		return defer_release(d, dir, tmp, existing);
	if ((r = set_links(fs, existing, 0)) || (r = barrier(fs)) ||
	    (r = retarget(fs, dir, base, ino)) || (r = barrier(fs)) ||
	    (r = err_from_ext2(ext2fs_unlink(fs, dir, tmp, ino, 0))))
		return r;
	return release_inode(fs, existing);
out_release:
	release_inode(fs, ino);
	return r;
}

struct membuf {
	const char *p;
	size_t left;
};

static ssize_t read_mem(void *ctx, void *buf, size_t len)
{
	struct membuf *m = ctx;
	if (len > m->left)
		len = m->left;
	memcpy(buf, m->p, len);
	m->p += len;
	m->left -= len;
	return (ssize_t)len;
}

int bb_resdisk_write_buf(struct resdisk *d, const char *path, const void *buf, size_t len)
{
	struct membuf m = {buf, len};
	return write_file(d, path, read_mem, &m, NULL);
}

static enum resdisk_type type_of(const struct ext2_inode *inode)
{
	if (LINUX_S_ISREG(inode->i_mode))
		return RESDISK_T_FILE;
	if (LINUX_S_ISDIR(inode->i_mode))
		return RESDISK_T_DIR;
	if (LINUX_S_ISLNK(inode->i_mode))
		return RESDISK_T_SYMLINK;
	return RESDISK_T_OTHER;
}

struct list_ctx {
	ext2_filsys fs;
	int (*fn)(const struct resdisk_entry *e, void *ctx);
	void *ctx;
	int rc;
};

static int list_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *dirent, int offset,
                      int blocksize, char *buf, void *priv)
{
	struct list_ctx *lc = priv;
	char name[EXT2_NAME_LEN + 1];
	int len = ext2fs_dirent_name_len(dirent);
	struct ext2_inode inode;

	if (!dirent->inode)
		return 0;
	memcpy(name, dirent->name, len);
	name[len] = 0;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	struct resdisk_entry e = {.name = name, .type = RESDISK_T_OTHER, .ino = dirent->inode};
	if (!read_inode(lc->fs, dirent->inode, &inode)) {
		e.type = type_of(&inode);
		e.size = EXT2_I_SIZE(&inode);
	}
	lc->rc = lc->fn(&e, lc->ctx);
	return lc->rc ? DIRENT_ABORT : 0;
}

int bb_resdisk_list(struct resdisk *d, const char *path,
                    int (*fn)(const struct resdisk_entry *e, void *ctx), void *ctx)
{
	ext2_ino_t dir;
	int r = lookup_dir(d->fs, path, &dir);
	if (r)
		return r;
	struct list_ctx lc = {d->fs, fn, ctx, 0};
	r = err_from_ext2(ext2fs_dir_iterate2(d->fs, dir, 0, NULL, list_entry, &lc));
	return lc.rc ? lc.rc : r;
}

int bb_resdisk_stat(struct resdisk *d, const char *path, struct resdisk_entry *e)
{
	char dirpath[4096];
	ext2_ino_t dir, ino;
	struct ext2_inode inode;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t dlen = base - path, blen = strlen(base);
	int r;

	if (dlen >= sizeof(dirpath))
		return -ENAMETOOLONG;
	if (!blen || blen > EXT2_NAME_LEN || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EINVAL;
	memcpy(dirpath, path, dlen);
	dirpath[dlen] = 0;
	if ((r = lookup_dir(d->fs, dirpath, &dir)))
		return r;
	if ((r = err_from_ext2(ext2fs_lookup(d->fs, dir, base, blen, NULL, &ino))))
		return r;
	if ((r = read_inode(d->fs, ino, &inode)))
		return r;
	e->name = base;
	e->type = type_of(&inode);
	e->size = EXT2_I_SIZE(&inode);
	e->ino = ino;
	return 0;
}

int bb_resdisk_read(struct resdisk *d, const char *path, uint64_t max_size,
                    int (*fn)(const void *buf, size_t len, void *ctx), void *ctx)
{
	struct resdisk_entry e;
	ext2_file_t f;
	static char buf[65536];
	int r = bb_resdisk_stat(d, path, &e);
	if (r)
		return r;
	if (e.type != RESDISK_T_FILE)
		return e.type == RESDISK_T_DIR ? -EISDIR : -EINVAL;
	if (max_size && e.size > max_size)
		return -EFBIG;
	if ((r = err_from_ext2(ext2fs_file_open(d->fs, e.ino, 0, &f))))
		return r;
	uint64_t left = e.size;
	while (left) {
		unsigned int got = 0, want = left < sizeof(buf) ? (unsigned int)left : sizeof(buf);
		if ((r = err_from_ext2(ext2fs_file_read(f, buf, want, &got))))
			break;
		if (!got) {
			r = -EIO;
			break;
		}
		if ((r = fn(buf, got, ctx)))
			break;
		left -= got;
	}
	ext2fs_file_close(f);
	return r;
}

unsigned long long bb_resdisk_free_bytes(const struct resdisk *d)
{
	return (unsigned long long)ext2fs_free_blocks_count(d->fs->super) * d->fs->blocksize;
}

int bb_resdisk_flush(struct resdisk *d)
{
	ext2_filsys fs = d->fs;
	int r = 0;
	if (!d->rw)
		return 0;
	if (d->nfree) {
		/* old versions kept under temporary names by write_file: their exchange is on
		 * the device, then their zero link count, then they go */
		if ((r = barrier(fs)))
			return r;
		for (size_t i = 0; i < d->nfree; i++) {
			int rr = set_links(fs, d->to_free[i].ino, 0);
			if (!r)
				r = rr;
		}
		if (!r)
			r = barrier(fs);
		for (size_t i = 0; !r && i < d->nfree; i++) {
			struct pending *p = &d->to_free[i];
			int rr = err_from_ext2(ext2fs_unlink(fs, p->dir, p->name, p->ino, 0));
			if (!rr)
				rr = release_inode(fs, p->ino);
			if (!r)
				r = rr;
		}
		d->nfree = 0;
	}
	ext2fs_mark_super_dirty(fs);
	int rr = err_from_ext2(ext2fs_flush(fs));
	return r ? r : rr;
}

int bb_resdisk_close(struct resdisk *d)
{
	int r = 0;
	if (!d)
		return 0;
	if (d->rw) {
		r = bb_resdisk_flush(d);
		if (!r) /* clean only when everything before is on the device */
			d->fs->super->s_state |= EXT2_VALID_FS;
		ext2fs_mark_super_dirty(d->fs);
		int rr = err_from_ext2(ext2fs_close2(d->fs, 0));
		if (!r)
			r = rr;
		if (rr)
			ext2fs_free(d->fs);
	} else {
		ext2fs_free(d->fs);
	}
	free(d->to_free);
	free(d);
	return r;
}

int bb_resdisk_init_marker(const char *path, const char *id)
{
	char old[RESDISK_ID_LEN + 1], buf[128];
	int r = bb_resdisk_check_label(path);
	if (r)
		return r;
	if (!is_hex_id(id, strlen(id)))
		return -EINVAL;
	struct resdisk *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->rw = 1;
	if ((r = open_fs(path, 1, &d->fs))) {
		free(d);
		return r;
	}
	if (!(r = read_marker(d->fs, old)) || r != -EMEDIUMTYPE) {
		ext2fs_free(d->fs);
		free(d);
		return r ? r : -EEXIST;
	}
	if ((r = err_from_ext2(ext2fs_read_bitmaps(d->fs))))
		goto out_close;
	snprintf(buf, sizeof(buf), "%s\nid=%s\n", RESDISK_MARKER_MAGIC, id);
	if ((r = bb_resdisk_mkdir_p(d, RESDISK_BOOTS)))
		goto out_close;
	r = bb_resdisk_write_buf(d, RESDISK_MARKER, buf, strlen(buf));
	memcpy(d->id, id, RESDISK_ID_LEN);
out_close : {
	int rr = bb_resdisk_close(d);
	return r ? r : rr;
}
}

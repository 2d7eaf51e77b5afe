/* Bootable disk images: GPT, FAT32 ESP with the UKI, results partition (see bootdisk.h). */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ext2fs/ext2fs.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/boot/bootdisk.h"
#include "host/boot/fat.h"
#include "host/boot/gpt.h"
#include "resdisk.h"
#include "sha256.h"
#include "host/boot/uki.h"

#define MIB (1ull << 20)
#define SECTOR 512ull

void bootdisk_disk_id(const char *seed, char id[33])
{
	char hex[SHA256_HEX_LEN + 1], buf[512];
	snprintf(buf, sizeof(buf), "benchboot-results-disk-id %s", seed);
	sha256_hex(buf, strlen(buf), hex);
	memcpy(id, hex, 32);
	id[32] = 0;
}

/* mke2fs as `benchboot mkdisk` runs it, with the UUID, hash seed and time fixed. */
static int run_mke2fs(const char *path, const char *uuid, const char *hash_seed, uint32_t mtime)
{
	char opts[256], now[32];
	snprintf(opts, sizeof(opts), "lazy_itable_init=0,lazy_journal_init=0,hash_seed=%s",
		 hash_seed);
	snprintf(now, sizeof(now), "%u", mtime);
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char *argv[] = {"mke2fs", "-q", "-F", "-t", "ext4", "-L", RESDISK_LABEL, "-m", "0",
				"-b", "4096", "-U", (char *)uuid, "-E", opts, (char *)path, NULL};
		setenv("E2FSPROGS_FAKE_TIME", now, 1);
		dup2(2, 1);
		execvp("mke2fs", argv);
		execv("/sbin/mke2fs", argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* Every in-use inode's times set to t: resdisk stamps the marker with the clock. */
static int normalise_times(const char *path, uint32_t t)
{
	ext2_filsys fs;
	ext2_inode_scan scan;
	ext2_ino_t ino;
	errcode_t e = ext2fs_open(path, EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs);
	if (e)
		return -EIO;
	fs->now = t;
	int isize = EXT2_INODE_SIZE(fs->super);
	struct ext2_inode_large *inode = calloc(1, (size_t)isize);
	if (!inode) {
		ext2fs_close_free(&fs);
		return -ENOMEM;
	}
	if ((e = ext2fs_open_inode_scan(fs, 0, &scan)))
		goto out_close;
	while (!(e = ext2fs_get_next_inode_full(scan, &ino, (struct ext2_inode *)inode, isize)) &&
	       ino) {
		if (!inode->i_links_count && !inode->i_mode)
			continue;
		int large = isize > EXT2_GOOD_OLD_INODE_SIZE &&
			    EXT2_GOOD_OLD_INODE_SIZE + inode->i_extra_isize >=
				    (int)offsetof(struct ext2_inode_large, i_crtime_extra) + 4;
		int changed = inode->i_atime != t || inode->i_ctime != t || inode->i_mtime != t;
		if (large)
			changed |= inode->i_atime_extra || inode->i_ctime_extra ||
				   inode->i_mtime_extra || inode->i_crtime != t ||
				   inode->i_crtime_extra;
		if (!changed)
			continue;
		inode->i_atime = inode->i_ctime = inode->i_mtime = t;
		if (large) {
			inode->i_atime_extra = inode->i_ctime_extra = inode->i_mtime_extra = 0;
			inode->i_crtime = t;
			inode->i_crtime_extra = 0;
		}
		if ((e = ext2fs_write_inode_full(fs, ino, (struct ext2_inode *)inode, isize)))
			break;
	}
	ext2fs_close_inode_scan(scan);
out_close:
	free(inode);
	fs->super->s_wtime = t;
	ext2fs_mark_super_dirty(fs);
	errcode_t ce = ext2fs_close_free(&fs);
	return e || ce ? -EIO : 0;
}

/* Copy the data extents of src (a sparse file) into dst at offset. */
static int copy_sparse(const char *src, int dst, uint64_t offset)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC), r = 0;
	static uint8_t buf[1 << 20];
	if (fd < 0)
		return -errno;
	off_t end = lseek(fd, 0, SEEK_END), pos = 0;
	while (pos < end) {
		off_t data = lseek(fd, pos, SEEK_DATA);
		if (data < 0)
			break; /* no more data */
		off_t hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			hole = end;
		for (off_t at = data; at < hole;) {
			size_t want = (size_t)(hole - at) < sizeof(buf) ? (size_t)(hole - at) : sizeof(buf);
			ssize_t n = pread(fd, buf, want, at);
			if (n <= 0) {
				r = n < 0 ? -errno : -EIO;
				goto out_close;
			}
			if ((r = fileio_pwrite_all(dst, buf, (size_t)n, offset + (uint64_t)at)))
				goto out_close;
			at += n;
		}
		pos = hole;
	}
out_close:
	close(fd);
	return r;
}

static int make_results(const char *tmp, const struct bootdisk_spec *spec, uint64_t size,
			const char *disk_id, char *err, size_t errlen)
{
	uint8_t g[16];
	char uuid[37], seed[37], now[32];
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), r;
	if (fd < 0)
		return errbuf_fail(err, errlen, -errno, "unable to create %s: %s", tmp,
		                   strerror(errno));
	r = ftruncate(fd, (off_t)size) ? -errno : 0;
	close(fd);
	if (r)
		return errbuf_fail(err, errlen, r, "unable to size %s: %s", tmp,
		                   strerror(-r));
	gpt_guid_derive(spec->seed, "results-fs-uuid", g);
	gpt_guid_format(g, uuid);
	gpt_guid_derive(spec->seed, "results-fs-hash-seed", g);
	gpt_guid_format(g, seed);
	/* Times before FAT's epoch (1980) are clamped to it here too: E2FSPROGS_FAKE_TIME=0 would
	 * mean "no fake time" to libext2fs. */
	uint32_t t = spec->mtime < BOOTDISK_MIN_TIME ? BOOTDISK_MIN_TIME : spec->mtime;
	if ((r = run_mke2fs(tmp, uuid, seed, t)))
		return errbuf_fail(err, errlen, r,
		                   "unable to make the results filesystem: %s",
		                   r == -EIO ? "mke2fs failed" : strerror(-r));
	/* libext2fs takes its clock from E2FSPROGS_FAKE_TIME too; restore the caller's. */
	const char *old = getenv("E2FSPROGS_FAKE_TIME");
	char *saved = old ? strdup(old) : NULL;
	snprintf(now, sizeof(now), "%u", t);
	setenv("E2FSPROGS_FAKE_TIME", now, 1);
	r = resdisk_init_marker(tmp, disk_id);
	if (!r)
		r = normalise_times(tmp, t);
	if (saved)
		setenv("E2FSPROGS_FAKE_TIME", saved, 1);
	else
		unsetenv("E2FSPROGS_FAKE_TIME");
	free(saved);
	if (r)
		return errbuf_fail(err, errlen, r,
		                   "unable to write the results disk marker: %s",
		                   resdisk_strerror(r));
	return 0;
}

int bootdisk_build(const struct bootdisk_spec *spec, const char *out,
		   struct bootdisk_layout *layout, char *err, size_t errlen)
{
	struct bootdisk_layout l = {0};
	uint8_t *uki = NULL;
	size_t uki_len;
	char tmp[4096], restmp[4096];
	int fd = -1, r, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp) ||
	    snprintf(restmp, sizeof(restmp), "%s.results.tmp", out) >= (int)sizeof(restmp))
		return errbuf_fail(err, errlen, -EINVAL, "path too long: %s", out);
	uint64_t results = spec->results_size ? spec->results_size : BOOTDISK_DEFAULT_RESULTS_SIZE;
	if (results % MIB || results < 16 * MIB)
		return errbuf_fail(
		    err, errlen, -EINVAL,
		    "results partition size %llu: a multiple of 1 MiB, at least 16 MiB",
		    (unsigned long long)results);
	if ((r = fileio_read_all(spec->uki, &uki, &uki_len)))
		return errbuf_fail(err, errlen, -EINVAL, "unable to read %s: %s", spec->uki,
		                   strerror(-r));

	struct fat_file files[] = {{BOOTDISK_ESP_PATH, uki, uki_len}};
	uint8_t volid[16];
	gpt_guid_derive(spec->seed, "esp-volume-id", volid);
	struct fat_spec fat = {.label = BOOTDISK_ESP_LABEL,
			       .volume_id = (uint32_t)volid[0] | (uint32_t)volid[1] << 8 |
					    (uint32_t)volid[2] << 16 | (uint32_t)volid[3] << 24,
			       .mtime = spec->mtime, .files = files, .nfiles = 1};
	uint64_t esp = spec->esp_size;
	if (!esp) {
		esp = (2 * (uint64_t)uki_len + 8 * MIB + MIB - 1) / MIB * MIB;
		if (esp < 64 * MIB)
			esp = 64 * MIB;
	}
	uint64_t min = fat_min_size(&fat);
	if (esp % MIB || esp < min) {
		ret = errbuf_fail(
		    err, errlen, -EINVAL,
		    "ESP size %llu MiB: must be whole MiB and hold the UKI (at least %llu MiB)",
		    (unsigned long long)(esp / MIB), (unsigned long long)(min / MIB));
		goto out_free;
	}
	fat.size = esp;

	l.esp_first = MIB / SECTOR;
	l.esp_sectors = esp / SECTOR;
	l.results_first = l.esp_first + l.esp_sectors;
	l.results_sectors = results / SECTOR;
	l.sectors = l.results_first + l.results_sectors + MIB / SECTOR;
	fat.hidden_sectors = (uint32_t)l.esp_first;
	bootdisk_disk_id(spec->seed, l.disk_id);

	if ((ret = make_results(restmp, spec, results, l.disk_id, err, errlen)))
		goto out_unlink;

	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)(l.sectors * SECTOR))) {
		ret = errbuf_fail(err, errlen, -errno, "unable to create %s: %s", tmp,
		                  strerror(errno));
		goto out_unlink;
	}
	struct gpt_partition parts[2] = {
		{.first_lba = l.esp_first, .last_lba = l.esp_first + l.esp_sectors - 1,
		 .name = "benchboot-esp"},
		{.first_lba = l.results_first, .last_lba = l.results_first + l.results_sectors - 1,
		 .name = "benchboot-results"},
	};
	uint8_t disk_guid[16];
	gpt_guid_parse(GPT_TYPE_ESP, parts[0].type);
	gpt_guid_parse(GPT_TYPE_LINUX_DATA, parts[1].type);
	gpt_guid_derive(spec->seed, "partition-esp", parts[0].guid);
	gpt_guid_derive(spec->seed, "partition-results", parts[1].guid);
	gpt_guid_derive(spec->seed, "disk", disk_guid);
	if ((r = gpt_write(fd, l.sectors, disk_guid, parts, 2))) {
		ret = errbuf_fail(err, errlen, r, "unable to write the partition table: %s",
		                  strerror(-r));
		goto out_unlink;
	}
	if ((r = fat_write(fd, l.esp_first * SECTOR, &fat))) {
		ret = errbuf_fail(err, errlen, r == -EIO || r == -ENOMEM ? r : -EINVAL,
		                  "unable to write the ESP: %s", strerror(-r));
		goto out_unlink;
	}
	if ((r = copy_sparse(restmp, fd, l.results_first * SECTOR))) {
		ret = errbuf_fail(err, errlen, r, "unable to copy the results partition: %s",
		                  strerror(-r));
		goto out_unlink;
	}
	if (fsync(fd) || close(fd)) {
		fd = -1;
		ret = errbuf_fail(err, errlen, -errno, "unable to write %s: %s", tmp,
		                  strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, out))
		ret = errbuf_fail(err, errlen, -errno, "unable to rename %s: %s", tmp,
		                  strerror(errno));
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(restmp);
	if (ret)
		unlink(tmp);
out_free:
	free(uki);
	if (layout)
		*layout = l;
	return ret;
}

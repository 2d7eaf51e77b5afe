/* Bootable disk images: GPT, FAT32 ESP with the UKI, results partition (see bootdisk.h). */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/errbuf.h"
#include "host/fileio.h"
#include "host/boot/bootdisk.h"
#include "host/boot/fat.h"
#include "host/gpt.h"
#include "host/results/mkdisk.h"
#include "results/resdisk.h"
#include "sha256.h"
#include "host/boot/uki.h"

#define MIB (1ull << 20)
#define SECTOR 512ull

/* The results disk id derived from a seed (32 hex digits + NUL). */
static void bootdisk_disk_id(const char *seed, char id[33])
{
	char hex[SHA256_HEX_LEN + 1], buf[512];
	snprintf(buf, sizeof(buf), "benchboot-results-disk-id %s", seed);
	bb_sha256_hex(buf, strlen(buf), hex);
	memcpy(id, hex, 32);
	id[32] = 0;
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
			size_t want =
			    (size_t)(hole - at) < sizeof(buf) ? (size_t)(hole - at) : sizeof(buf);
			ssize_t n = pread(fd, buf, want, at);
			if (n <= 0) {
				r = n < 0 ? -errno : -EIO;
				goto out_close;
			}
			if ((r = bb_fileio_pwrite_all(dst, buf, (size_t)n, offset + (uint64_t)at)))
				goto out_close;
			at += n;
		}
		pos = hole;
	}
out_close:
	close(fd);
	return r;
}

/* The results partition: a results disk (bb_mkdisk, as `benchboot mkdisk` makes one) with its
 * UUID, hash seed, disk id and times derived from the seed. */
static int make_results(const char *tmp, const struct bootdisk_spec *spec, uint64_t size,
                        const char *disk_id, char *err, size_t errlen)
{
	uint8_t g[16];
	char uuid[37], seed[37], msg[1024];
	bb_gpt_guid_derive(spec->seed, "results-fs-uuid", g);
	bb_gpt_guid_format(g, uuid);
	bb_gpt_guid_derive(spec->seed, "results-fs-hash-seed", g);
	bb_gpt_guid_format(g, seed);
	/* Times before FAT's epoch (1980) are clamped to it here too: E2FSPROGS_FAKE_TIME=0 would
	 * mean "no fake time" to libext2fs. */
	uint32_t t = spec->mtime < BOOTDISK_MIN_TIME ? BOOTDISK_MIN_TIME : spec->mtime;
	struct bb_mkdisk o = {
	    .size = size, .force = 1, .id = disk_id, .uuid = uuid, .hash_seed = seed, .mtime = t};
	int r = bb_mkdisk(tmp, &o, NULL, msg, sizeof(msg));
	if (r)
		return bb_errbuf_fail(err, errlen, r, "unable to make the results partition: %s",
		                      msg);
	return 0;
}

int bb_bootdisk_build(const struct bootdisk_spec *spec, const char *out,
                      struct bootdisk_layout *layout, char *err, size_t errlen)
{
	struct bootdisk_layout l = {0};
	uint8_t *uki = NULL;
	size_t uki_len;
	char tmp[4096], restmp[4096];
	int fd = -1, r, ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out) >= (int)sizeof(tmp) ||
	    snprintf(restmp, sizeof(restmp), "%s.results.tmp", out) >= (int)sizeof(restmp))
		return bb_errbuf_fail(err, errlen, -EINVAL, "path too long: %s", out);
	uint64_t results = spec->results_size ? spec->results_size : BOOTDISK_DEFAULT_RESULTS_SIZE;
	if (results % MIB || results < 16 * MIB)
		return bb_errbuf_fail(
		    err, errlen, -EINVAL,
		    "results partition size %llu: a multiple of 1 MiB, at least 16 MiB",
		    (unsigned long long)results);
	if ((r = bb_fileio_read_all(spec->uki, &uki, &uki_len)))
		return bb_errbuf_fail(err, errlen, -EINVAL, "unable to read %s: %s", spec->uki,
		                      strerror(-r));

	struct fat_file files[] = {{BOOTDISK_ESP_PATH, uki, uki_len}};
	uint8_t volid[16];
	bb_gpt_guid_derive(spec->seed, "esp-volume-id", volid);
	struct fat_spec fat = {.label = BOOTDISK_ESP_LABEL,
	                       .volume_id = (uint32_t)volid[0] | (uint32_t)volid[1] << 8 |
	                                    (uint32_t)volid[2] << 16 | (uint32_t)volid[3] << 24,
	                       .mtime = spec->mtime,
	                       .files = files,
	                       .nfiles = 1};
	uint64_t esp = spec->esp_size;
	if (!esp) {
		esp = (2 * (uint64_t)uki_len + 8 * MIB + MIB - 1) / MIB * MIB;
		if (esp < 64 * MIB)
			esp = 64 * MIB;
	}
	uint64_t min = bb_fat_min_size(&fat);
	if (esp % MIB || esp < min) {
		ret = bb_errbuf_fail(
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
		ret = bb_errbuf_fail(err, errlen, -errno, "unable to create %s: %s", tmp,
		                     strerror(errno));
		goto out_unlink;
	}
	struct gpt_partition parts[2] = {
	    {.first_lba = l.esp_first,
	     .last_lba = l.esp_first + l.esp_sectors - 1,
	     .name = "benchboot-esp"},
	    {.first_lba = l.results_first,
	     .last_lba = l.results_first + l.results_sectors - 1,
	     .name = "benchboot-results"},
	};
	uint8_t disk_guid[16];
	bb_gpt_guid_parse(GPT_TYPE_ESP, parts[0].type);
	bb_gpt_guid_parse(GPT_TYPE_LINUX_DATA, parts[1].type);
	bb_gpt_guid_derive(spec->seed, "partition-esp", parts[0].guid);
	bb_gpt_guid_derive(spec->seed, "partition-results", parts[1].guid);
	bb_gpt_guid_derive(spec->seed, "disk", disk_guid);
	if ((r = bb_gpt_write(fd, l.sectors, disk_guid, parts, 2))) {
		ret = bb_errbuf_fail(err, errlen, r, "unable to write the partition table: %s",
		                     strerror(-r));
		goto out_unlink;
	}
	if ((r = bb_fat_write(fd, l.esp_first * SECTOR, &fat))) {
		ret = bb_errbuf_fail(err, errlen, r == -EIO || r == -ENOMEM ? r : -EINVAL,
		                     "unable to write the ESP: %s", strerror(-r));
		goto out_unlink;
	}
	if ((r = copy_sparse(restmp, fd, l.results_first * SECTOR))) {
		ret = bb_errbuf_fail(err, errlen, r, "unable to copy the results partition: %s",
		                     strerror(-r));
		goto out_unlink;
	}
	if (fsync(fd) || close(fd)) {
		fd = -1;
		ret = bb_errbuf_fail(err, errlen, -errno, "unable to write %s: %s", tmp,
		                     strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, out))
		ret = bb_errbuf_fail(err, errlen, -errno, "unable to rename %s: %s", tmp,
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

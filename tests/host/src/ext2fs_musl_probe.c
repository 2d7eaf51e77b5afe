/* Writes /hello.txt into an ext4 image with libext2fs; built static with musl by
 * tests/host/musl-libext2fs.sh to prove the init's library build works. */
#include <sys/types.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <ext2fs/ext2fs.h>

int main(int argc, char **argv)
{
	static const char msg[] = "hello from musl libext2fs\n";
	ext2_filsys fs;
	ext2_ino_t ino;
	ext2_file_t file;
	struct ext2_inode inode;
	unsigned int written;
	errcode_t err;

	if (argc != 2)
		return 100;
	if ((err =
	         ext2fs_open(argv[1], EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0, unix_io_manager, &fs)))
		goto fail;
	if ((err = ext2fs_read_bitmaps(fs)))
		goto fail;
	if ((err = ext2fs_new_inode(fs, EXT2_ROOT_INO, LINUX_S_IFREG | 0644, 0, &ino)))
		goto fail;
	if ((err = ext2fs_link(fs, EXT2_ROOT_INO, "hello.txt", ino, EXT2_FT_REG_FILE)))
		goto fail;
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_links_count = 1;
	if (ext2fs_has_feature_extents(fs->super))
		inode.i_flags |= EXT4_EXTENTS_FL;
	if ((err = ext2fs_write_new_inode(fs, ino, &inode)))
		goto fail;
	if (inode.i_flags & EXT4_EXTENTS_FL) {
		ext2_extent_handle_t h;
		if ((err = ext2fs_extent_open2(fs, ino, &inode, &h)))
			goto fail;
		ext2fs_extent_free(h);
	}
	if ((err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &file)))
		goto fail;
	if ((err = ext2fs_file_write(file, msg, sizeof(msg) - 1, &written)))
		goto fail;
	if ((err = ext2fs_file_close(file)))
		goto fail;
	if ((err = ext2fs_close_free(&fs)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "ext2fs_musl_probe: error %ld\n", (long)err);
	return 111;
}

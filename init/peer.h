/*
 * The wire of the init-to-init protocol of two-host plans (docs/cluster.md): messages are
 * lines `WORD key=value ...`, values percent-encoded; one TCP connection, every read and
 * connect bounded by a deadline (CLOCK_BOOTTIME ms, init_now_ms()). No state of the boot here:
 * cluster.c says what the messages mean.
 */
#ifndef BENCHBOOT_INIT_PEER_H
#define BENCHBOOT_INIT_PEER_H

#include <stddef.h>

#define PEER_LINE_MAX 4096
#define PEER_FIELDS_MAX 16
#define PEER_PROTO 1

struct peer_msg {
	char word[32];
	size_t n;
	struct {
		char key[32];
		char value[1024];
	} f[PEER_FIELDS_MAX];
};

/* Parse one line (no newline): 0, or -EINVAL with the reason in err. */
int peer_msg_parse(const char *line, struct peer_msg *m, char *err, size_t errlen);
/* The value of field key, or NULL. */
const char *peer_msg_get(const struct peer_msg *m, const char *key);
/* Start a line with its word / append ` key=VALUE` (value encoded); 0 or -ENOSPC (the line
 * is then unusable). */
int peer_line_start(char *buf, size_t cap, const char *word);
int peer_line_add(char *buf, size_t cap, const char *key, const char *value);

struct peer_conn {
	int fd; /* -1: none */
	size_t len;
	char buf[2 * PEER_LINE_MAX];
};

/* Connect to ADDR:PORT (IPv4) before the deadline: 0 (c->fd set) or -errno. */
int peer_connect(struct peer_conn *c, const char *addr, int port, double deadline_ms);
/* Listen on every address, port: the fd or -errno. */
int peer_listen(int port);
/* Accept one connection on lfd before the deadline: 0 (c->fd set, *from its address) or
 * -ETIMEDOUT / -errno. */
int peer_accept(struct peer_conn *c, int lfd, double deadline_ms, char *from, size_t fromlen);
/* Send one line (the newline added); 0 or -errno (a 10 s send timeout). */
int peer_send(struct peer_conn *c, const char *line);
/* Send len raw bytes; 0 or -errno. */
int peer_send_bytes(struct peer_conn *c, const void *data, size_t len);
/* Receive the next message before the deadline: 0, -ETIMEDOUT, -ECONNRESET (closed), -EPROTO
 * (a line too long or malformed: err says why) or -errno. */
int peer_recv(struct peer_conn *c, struct peer_msg *m, double deadline_ms, char *err,
              size_t errlen);
/* Receive exactly len raw bytes into a malloc'd, NUL-terminated *out; 0 or as peer_recv. */
int peer_recv_bytes(struct peer_conn *c, size_t len, char **out, double deadline_ms);
void peer_close(struct peer_conn *c);

#endif

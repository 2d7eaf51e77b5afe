/*
 * Is a TCP server listening? A server's readiness (`server.N.ready=tcp:ADDR:PORT`, docs/plan.md)
 * is a listening socket on PORT bound to ADDR or to the wildcard address, as the kernel lists
 * it in /proc/net/tcp and /proc/net/tcp6: what `netstat -ltn` shows. Once such a socket exists
 * the kernel completes connections to it by itself, so looking is as good as connecting, and
 * cheaper: under TCG the first TCP handshake of a boot runs the kernel's connect and accept
 * paths for the first time (22-69 ms measured), a cost the benchmark's own first connect pays
 * anyway.
 */
#ifndef BENCHBOOT_INIT_LISTENING_H
#define BENCHBOOT_INIT_LISTENING_H

#include <sys/socket.h>

/* 1: a socket listens on the address and port of ss (AF_INET or AF_INET6); 0: none does;
 * -errno: the lists cannot tell (unreadable, or only an IPv6 wildcard socket for an IPv4
 * address): the caller connects to find out. */
int tcp_listening(const struct sockaddr_storage *ss);

#endif

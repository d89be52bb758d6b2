/* The host backend's collectives (dist_* slots; base/ga_dist.h): a world of
 * one rank, so that code written for ga.distributed runs on a machine
 * without a GPU or NCCL.  With one rank every collective is the identity
 * or a copy (all_reduce, reduce and reduce_scatter of one contribution are
 * that contribution, "avg" too), and a send to rank 0 is queued until the
 * matching receive (a private copy of the bytes, so the sender may change
 * its array at once). */
#include "host/ga_host.h"
#include "base/ga_dist.h"
#include "base/ga_backend.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdio.h>

typedef struct msg { struct msg *next; size_t n; unsigned char bytes[]; } msg;
typedef struct host_comm { msg *head, *tail; } host_comm;

int ga_host_dist_version(int *version) {
  *version = 0;   /* no library: the host's one-rank world */
  return GA_OK;
}

int ga_host_dist_unique_id(unsigned char id[GA_DIST_ID_BYTES]) {
  /* any id will do for a world of one; make it look like one */
  FILE *f = fopen("/dev/urandom", "rb");
  size_t got = f ? fread(id, 1, GA_DIST_ID_BYTES, f) : 0;
  if (f) fclose(f);
  if (got != GA_DIST_ID_BYTES) {
    unsigned x = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)id;
    for (int i = 0; i < GA_DIST_ID_BYTES; i++) id[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
  }
  return GA_OK;
}

int ga_host_dist_init(ga_comm *c, const unsigned char *id) {
  (void)id;
  if (c->world != 1 || c->nlocal != 1 || c->dev[0] != GA_CPU)
    return ga_err(GA_EDEVICE, "the host backend is a world of one rank (world_size %d asked for); several ranks "
                  "need GPUs and NCCL (one process per GPU)", c->world);
  host_comm *h = calloc(1, sizeof *h);
  if (!h) return ga_err(GA_ENOMEM, "out of host memory");
  c->impl = h;
  c->open = 1;
  return GA_OK;
}

void ga_host_dist_destroy(ga_comm *c, int abort) {
  (void)abort;
  host_comm *h = c->impl;
  if (h) {
    while (h->head) {
      msg *m = h->head;
      h->head = m->next;
      free(m);
    }
    free(h);
  }
  c->impl = NULL;
  c->open = 0;
}

int ga_host_dist_group(ga_comm *c, int start) {
  (void)c, (void)start;
  return GA_OK;   /* every call is done when it returns */
}

int ga_host_dist_run(ga_comm *c, const ga_dist_call *k) {
  host_comm *h = c->impl;
  size_t n = k->count * (size_t)GA_ITEMSIZE(k->dtype);
  switch (k->kind) {
  case GA_DIST_SEND: {
    msg *m = malloc(sizeof *m + n);
    if (!m) return ga_err(GA_ENOMEM, "out of host memory");
    m->next = NULL;
    m->n = n;
    memcpy(m->bytes, k->send[0], n);
    if (h->tail) h->tail->next = m;
    else h->head = m;
    h->tail = m;
    return GA_OK;
  }
  case GA_DIST_RECV: {
    msg *m = h->head;
    if (!m) return ga_err(GA_EINVAL, "recv: nothing was sent to this rank (send first, or both in one comm:group)");
    if (m->n != n)
      return ga_err(GA_EINVAL, "recv: the message is %zu bytes, the array %zu bytes", m->n, n);
    memcpy(k->recv[0], m->bytes, n);
    h->head = m->next;
    if (!h->head) h->tail = NULL;
    free(m);
    return GA_OK;
  }
  default:
    /* one rank: the result is the rank's own contribution */
    if (k->recv[0] != k->send[0]) memmove(k->recv[0], k->send[0], n);
    return GA_OK;
  }
}

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
/* receives waiting for their send inside a group (NCCL pairs a group's
 * sends and receives in any order) */
typedef struct wait { struct wait *next; void *dst; size_t n; } wait_t;
typedef struct host_comm { msg *head, *tail; wait_t *whead, *wtail; int depth; } host_comm;

static void drop_waits(host_comm *h) {
  while (h->whead) {
    wait_t *w = h->whead;
    h->whead = w->next;
    free(w);
  }
  h->wtail = NULL;
}

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
    drop_waits(h);
    free(h);
  }
  c->impl = NULL;
  c->open = 0;
}

int ga_host_dist_group(ga_comm *c, int start) {
  host_comm *h = c->impl;
  if (!h) return GA_OK;   /* ending the group of a destroyed comm */
  if (start) {
    h->depth++;
    return GA_OK;
  }
  if (h->depth > 0 && --h->depth == 0 && h->whead) {
    drop_waits(h);
    return ga_err(GA_EINVAL, "the group ended with a receive that no send matched");
  }
  return GA_OK;
}

int ga_host_dist_run(ga_comm *c, const ga_dist_call *k) {
  host_comm *h = c->impl;
  size_t n = k->count * (size_t)GA_ITEMSIZE(k->dtype);
  switch (k->kind) {
  case GA_DIST_SEND: {
    if (h->whead) {   /* a receive of this group is waiting for it */
      wait_t *w = h->whead;
      if (w->n != n) return ga_err(GA_EINVAL, "the message is %zu bytes, the receiving array %zu bytes", n, w->n);
      memcpy(w->dst, k->send[0], n);
      h->whead = w->next;
      if (!h->whead) h->wtail = NULL;
      free(w);
      return GA_OK;
    }
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
    if (!m && h->depth > 0) {   /* its send may come later in the group */
      wait_t *w = malloc(sizeof *w);
      if (!w) return ga_err(GA_ENOMEM, "out of host memory");
      w->next = NULL;
      w->dst = k->recv[0];
      w->n = n;
      if (h->wtail) h->wtail->next = w;
      else h->whead = w;
      h->wtail = w;
      return GA_OK;
    }
    if (!m) return ga_err(GA_EINVAL, "nothing was sent to this rank (send first, or both in one comm:group)");
    if (m->n != n)
      return ga_err(GA_EINVAL, "the message is %zu bytes, the array %zu bytes", m->n, n);
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

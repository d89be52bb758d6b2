/* The thread's sync listener (base/ga_sync.h). */
#include "base/ga_sync.h"
#include <stddef.h>

static __thread ga_sync_hook hook;
static __thread void *hook_ud;

void ga_sync_set_hook(ga_sync_hook fn, void *ud) {
  hook = fn;
  hook_ud = fn ? ud : NULL;
}

void *ga_sync_hook_ud(void) { return hook_ud; }

void ga_sync_note(int device) {
  if (hook) hook(hook_ud, device);
}

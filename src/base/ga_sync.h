/* Implicit host-device synchronisations (issue 16's sync ledger): a
 * backend reports each blocking copy it makes for a read-back (item,
 * tostring, masks, nonzero, ...) with ga_sync_note; whoever listens on
 * this thread (the binding's ledger) set a hook.  No Lua here. */
#ifndef GA_SYNC_H
#define GA_SYNC_H

typedef void (*ga_sync_hook)(void *ud, int device);

/* This thread's listener (fn NULL: none). */
void ga_sync_set_hook(ga_sync_hook fn, void *ud);
void *ga_sync_hook_ud(void);
/* A blocking synchronisation with device has happened on this thread. */
void ga_sync_note(int device);

#endif

#ifndef ATTEST_SPAWN_H
#define ATTEST_SPAWN_H

#include <sys/types.h>

/// Starts `/bin/sh -c command` for an exec verifier, as a clean child: in a process group of its own (so the
/// harness can signal the adapter and everything it started), with an empty signal mask and every signal at its
/// default disposition (whatever the spawning thread blocked or ignored), with `stdin_fd`, `stdout_fd` and
/// `stderr_fd` as its descriptors 0, 1 and 2 and no other descriptor of the harness.
/// Returns the child's pid (also its process group id), or -errno when it cannot start (-ECANCELED once a cleanup
/// signal has arrived). The child is remembered for the cleanup handlers until `attest_release_group`.
pid_t attest_spawn_shell(const char *command, int stdin_fd, int stdout_fd, int stderr_fd);

/// Waits for `pid` to exit: its exit status (0 to 255), 128 + the signal that ended it, or -errno.
int attest_wait(pid_t pid);

/// Sends `signal` to the process group `group`; returns 0 or -errno (ESRCH once the whole group is gone).
int attest_signal_group(pid_t group, int signal);

/// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that stop every new spawn, kill the process group of
/// every exec child started before (SIGKILL; a spawn under way on another thread is waited for), then end the
/// harness with the signal's default action: a harness stopped by Ctrl-C, Ctrl-\, a closed terminal or a CI
/// timeout leaves no adapter behind, even with cases still waiting to start.
void attest_install_cleanup_handlers(void);

/// Whether a cleanup signal has arrived (no child starts any more).
int attest_stopping(void);

/// Kills the process group `group` (everything the child left running) and forgets it: the last call for a child
/// started by `attest_spawn_shell`, after `attest_wait`.
void attest_release_group(pid_t group);

/// A pipe whose two ends are close-on-exec; returns 0 or -errno.
int attest_pipe(int ends[2]);

#endif

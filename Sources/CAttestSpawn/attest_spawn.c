#define _GNU_SOURCE
#include "attest_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The process groups of exec children still running, for the cleanup handlers: slots hold a pid or 0, written with
 * atomic operations only, so a signal handler may read them. */
#define ATTEST_MAX_CHILDREN 1024
static volatile sig_atomic_t live_children[ATTEST_MAX_CHILDREN];

static void remember_child(pid_t pid) {
    for (int index = 0; index < ATTEST_MAX_CHILDREN; index++) {
        if (__sync_bool_compare_and_swap(&live_children[index], 0, pid)) return;
    }
}

static void forget_child(pid_t pid) {
    for (int index = 0; index < ATTEST_MAX_CHILDREN; index++) {
        if (__sync_bool_compare_and_swap(&live_children[index], pid, 0)) return;
    }
}

static void cleanup_handler(int signal) {
    for (int index = 0; index < ATTEST_MAX_CHILDREN; index++) {
        pid_t pid = live_children[index];
        if (pid > 0) kill(-pid, SIGKILL);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

void attest_install_cleanup_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cleanup_handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
}

pid_t attest_spawn_shell(const char *command, int stdin_fd, int stdout_fd, int stderr_fd) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int error = posix_spawnattr_init(&attributes);
    if (error != 0) return -error;
    error = posix_spawn_file_actions_init(&actions);
    if (error != 0) {
        posix_spawnattr_destroy(&attributes);
        return -error;
    }

    short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef __APPLE__
    // Every descriptor not named in the file actions is closed in the child.
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;
#endif
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaddset(&defaults, signal);
    }
    if ((error = posix_spawnattr_setflags(&attributes, flags)) != 0
        || (error = posix_spawnattr_setpgroup(&attributes, 0)) != 0
        || (error = posix_spawnattr_setsigmask(&attributes, &empty)) != 0
        || (error = posix_spawnattr_setsigdefault(&attributes, &defaults)) != 0
        || (error = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0)) != 0
        || (error = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) != 0
        || (error = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2)) != 0
#ifndef __APPLE__
        || (error = posix_spawn_file_actions_addclosefrom_np(&actions, 3)) != 0
#endif
    ) {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        return -error;
    }

    pid_t pid = 0;
    char *const arguments[] = {"sh", "-c", (char *)command, NULL};
    error = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) return -error;
    remember_child(pid);
    return pid;
}

int attest_wait(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) { forget_child(pid); return -errno; }
    }
    forget_child(pid);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 255;
}

int attest_signal_group(pid_t group, int signal) {
    return kill(-group, signal) == 0 ? 0 : -errno;
}

int attest_pipe(int ends[2]) {
#ifdef __APPLE__
    if (pipe(ends) != 0) return -errno;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    return 0;
#else
    return pipe2(ends, O_CLOEXEC) == 0 ? 0 : -errno;
#endif
}

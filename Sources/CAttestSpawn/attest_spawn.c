#define _GNU_SOURCE
#include "attest_spawn.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
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

/* Set once a cleanup signal arrives: no child starts after it. */
static volatile sig_atomic_t stopping = 0;
/* Spawns between their check of `stopping` and the moment their child is remembered. */
static volatile sig_atomic_t spawning = 0;

/* The signals that end the harness and its children: Ctrl-C, a CI timeout, a closed terminal, Ctrl-\. */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void kill_remembered(void) {
    for (int index = 0; index < ATTEST_MAX_CHILDREN; index++) {
        pid_t pid = live_children[index];
        if (pid > 0) kill(-pid, SIGKILL);
    }
}

static void cleanup_handler(int signal) {
    stopping = 1;
    __sync_synchronize();
    kill_remembered();
    /* A spawn under way on another thread (its thread blocks these signals meanwhile, so it is never this one)
     * remembers its child within microseconds: wait for it, at most a second, then kill what it started too. */
    for (int waited = 0; spawning > 0 && waited < 1000; waited++) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    kill_remembered();
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
    /* The others are held while one is handled: one cleanup, then the first signal's own default action. */
    for (size_t index = 0; index < sizeof cleanup_signals / sizeof cleanup_signals[0]; index++) {
        sigaddset(&action.sa_mask, cleanup_signals[index]);
    }
    for (size_t index = 0; index < sizeof cleanup_signals / sizeof cleanup_signals[0]; index++) {
        sigaction(cleanup_signals[index], &action, NULL);
    }
}

int attest_stopping(void) { return stopping; }

static pid_t spawn_shell(const char *command, int stdin_fd, int stdout_fd, int stderr_fd);

pid_t attest_spawn_shell(const char *command, int stdin_fd, int stdout_fd, int stderr_fd) {
    /* This thread holds the cleanup signals until its child is remembered, so the handler runs elsewhere and waits
     * for it (`spawning`), and a signal that came first stops the spawn (`stopping`). */
    sigset_t held, previous;
    sigemptyset(&held);
    for (size_t index = 0; index < sizeof cleanup_signals / sizeof cleanup_signals[0]; index++) sigaddset(&held, cleanup_signals[index]);
    pthread_sigmask(SIG_BLOCK, &held, &previous);
    __sync_fetch_and_add(&spawning, 1);
    pid_t pid = stopping ? -ECANCELED : spawn_shell(command, stdin_fd, stdout_fd, stderr_fd);
    if (pid > 0) remember_child(pid);
    __sync_fetch_and_sub(&spawning, 1);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return pid;
}

static pid_t spawn_shell(const char *command, int stdin_fd, int stdout_fd, int stderr_fd) {
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
    return pid;
}

int attest_wait(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -errno;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 255;
}

int attest_signal_group(pid_t group, int signal) {
    return kill(-group, signal) == 0 ? 0 : -errno;
}

void attest_release_group(pid_t group) {
    /* Killed first, forgotten after: a cleanup signal in between still finds the group. */
    kill(-group, SIGKILL);
    forget_child(group);
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

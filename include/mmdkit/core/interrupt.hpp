// mmdkit — temporary files removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP).
//
// An output is written to a temporary file beside its target and renamed at the end
// (AtomicFile, core/file.hpp). A normal failure removes the temporary file in the destructor; an
// interrupt (Ctrl-C, `kill`) does not run destructors, so every AtomicFile registers its
// temporary file here and the handlers installed by install_interrupt_cleanup() remove the
// registered files, then end the process by the same signal (default action), so the exit status
// still says how it ended (128 + signal number in a shell). Any writer of a temporary file (the
// render layer's video, a bake) registers it the same way.
#pragma once

namespace mmdkit {

/// Registers `path` (a NUL-terminated path, at most 4095 bytes) to be removed if the process is
/// interrupted. Returns a slot for unregister_temp_file(), or -1 when the path is too long or all
/// 64 slots are taken (the file is then not removed on interrupt; nothing else changes).
/// Thread-safe and async-signal-safe in what the handler reads.
int register_temp_file(const char* path) noexcept;

/// Forgets a slot returned by register_temp_file() (call it once the file is renamed or removed).
/// -1 is ignored.
void unregister_temp_file(int slot) noexcept;

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that unlink every registered temporary file
/// and then re-raise the signal with its default action. A signal whose handler is not the default
/// (SIG_IGN, or the application's own) is left alone. Call once at start (the mmdkit command does);
/// calling again does nothing.
void install_interrupt_cleanup() noexcept;

/// Unlinks every registered temporary file now (what the handlers do; for tests and for an
/// application that handles the signals itself). Async-signal-safe.
void remove_registered_temp_files() noexcept;

}  // namespace mmdkit

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Processes exist on macOS and Linux only: on iOS, tvOS, watchOS and visionOS this file compiles to nothing, so a
// host's iOS test target can link ReceptionTesting (Docs/Apple.md).
#if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))

/// A child program started with `posix_spawn` for a test: a helper (PyJWT, `djpeg`), a test server, or the app
/// under test on a pseudo-terminal.
///
/// Tests use this instead of `Foundation.Process`. On Linux, swift-corelibs-foundation up to 6.3.1 lists
/// `/proc/self/fd` in `Process.run()` to close inherited descriptors and can read past its buffer while doing so;
/// a test process that holds thousands of sockets (the emulator tests) crashed there with signal 11, taking the
/// whole suite down. Here the child closes every descriptor from 3 up itself (`posix_spawn`'s close-from action,
/// looked up at run time because the Glibc module does not declare it), so nothing is listed in the parent.
package final class Subprocess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        /// The test process's own stream.
        case inherit
        /// `/dev/null`.
        case null
        /// An open descriptor of the test process; the child gets a copy, the caller still owns it.
        case descriptor(Int32)
    }

    /// Why a child did not start.
    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The child's process ID.
    package let identifier: pid_t
    private let lock = NSLock()
    private var reapedStatus: Int32?

    /// Starts `executable` (a path, or a name looked up on the PATH) with `arguments`.
    package init(
        _ executable: String, _ arguments: [String], standardInput: Stream = .inherit,
        standardOutput: Stream = .inherit, standardError: Stream = .inherit
    ) throws {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        guard posix_spawn_file_actions_init(&actions) == 0 else {
            throw StartFailure(description: "posix_spawn_file_actions_init failed")
        }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch stream {
            case .inherit:
                break
            case .null:
                _ = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                // A copy onto itself clears close-on-exec (glibc 2.29 and later, Darwin).
                _ = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        Self.closeInheritedDescriptors(&actions)
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        guard posix_spawnattr_init(&attributes) == 0 else {
            throw StartFailure(description: "posix_spawnattr_init failed")
        }
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and every signal at its default action: the test's thread (a
        // dispatch worker blocks most signals) and the test process (which may ignore SIGPIPE) pass on neither, so
        // `terminate()` ends a child and a child's broken pipe ends it as it would from a shell.
        var signals = sigset_t()
        sigemptyset(&signals)
        _ = posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        _ = posix_spawnattr_setsigdefault(&attributes, &signals)
        _ = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            throw StartFailure(description: "\(executable): \(String(cString: strerror(status)))")
        }
        identifier = pid
    }

    /// Whether the child has not exited yet (it is not reaped by asking).
    package var isRunning: Bool {
        if lock.withLock({ reapedStatus }) != nil { return false }
        var info = siginfo_t()
        // WNOWAIT leaves the child to `waitUntilExit`, so the two never race for its status.
        var result: Int32
        repeat { result = waitid(P_PID, id_t(identifier), &info, WEXITED | WNOHANG | WNOWAIT) } while result == -1
            && errno == EINTR
        // An error means it was reaped meanwhile; a zero process ID in the answer means it still runs.
        return result == 0 && Self.childIdentifier(info) == 0
    }

    /// Blocks until the child exits and returns its exit status (128 + the signal when a signal ended it).
    @discardableResult
    package func waitUntilExit() -> Int32 {
        if let status = lock.withLock({ reapedStatus }) { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(identifier, &raw, 0) } while result == -1 && errno == EINTR
        let status: Int32
        if result == identifier {
            let signal = raw & 0x7F
            status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        } else {
            // Reaped by a concurrent `waitUntilExit`: its status is recorded below.
            status = lock.withLock { reapedStatus } ?? -1
        }
        return lock.withLock {
            if reapedStatus == nil { reapedStatus = status }
            return reapedStatus ?? status
        }
    }

    /// The exit status once the child has exited, else `nil`; reaps it if it has.
    package var terminationStatus: Int32? {
        isRunning ? nil : waitUntilExit()
    }

    /// Sends `signal` (SIGTERM unless told) if the child has not been reaped yet.
    package func terminate(_ signal: Int32 = SIGTERM) {
        lock.withLock {
            if reapedStatus == nil { _ = kill(identifier, signal) }
        }
    }

    #if canImport(Darwin)
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t?) {
        // Darwin's equivalent is an attribute flag with its own rules for the standard streams; untested here, so
        // a child on macOS inherits the test process's descriptors as `Foundation.Process` children did.
    }

    private static func childIdentifier(_ info: siginfo_t) -> pid_t { info.si_pid }
    #else
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, or `nil` on an older C library.
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        // Without it (glibc before 2.34) the child inherits what is not close-on-exec.
        if let closeFrom { _ = closeFrom(&actions, 3) }
    }

    private static func childIdentifier(_ info: siginfo_t) -> pid_t { info._sifields._sigchld.si_pid }
    #endif

    /// Calls `body` with a NULL-terminated C array of `strings`.
    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { array[index] = strdup(string) }
        array[strings.count] = nil
        defer {
            for index in 0..<strings.count { free(array[index]) }
            array.deallocate()
        }
        return body(array)
    }
}

#endif

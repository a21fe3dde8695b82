import Foundation
import ReceptionTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("SubprocessTests")
struct SubprocessTests {
    @Test func theExitStatusAndWhatTheChildPrintedComeBack() throws {
        let result = try ChildProcess.run(["sh", "-c", "cat; echo oops >&2; exit 3"], input: Data("fed in".utf8))
        #expect(result.status == 3)
        #expect(result.text == "fed in")
        #expect(String(decoding: result.errorOutput, as: UTF8.self) == "oops\n")
    }

    @Test func aSignalEndsTheChildWithOneHundredTwentyEightPlusIt() throws {
        let input = Pipe()
        // `cat` runs until its input ends; this test holds the write end, so it is running until the kill.
        let child = try Subprocess(
            "cat", [], standardInput: .descriptor(input.fileHandleForReading.fileDescriptor), standardOutput: .null)
        #expect(child.isRunning)
        #expect(child.terminationStatus == nil)
        child.terminate(SIGKILL)
        #expect(child.waitUntilExit() == 128 + SIGKILL)
        #expect(!child.isRunning)
        #expect(child.terminationStatus == 128 + SIGKILL)
        try input.fileHandleForWriting.close()
    }

    @Test func aChildStartedFromAThreadThatBlocksTermStillEndsOnTerm() throws {
        var term = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        var previous = sigset_t()
        #expect(pthread_sigmask(SIG_BLOCK, &term, &previous) == 0)
        let input = Pipe()
        let child = Result {
            try Subprocess(
                "cat", [], standardInput: .descriptor(input.fileHandleForReading.fileDescriptor), standardOutput: .null)
        }
        _ = pthread_sigmask(SIG_SETMASK, &previous, nil)
        let started = try child.get()
        started.terminate()
        // The end of input after the signal: a child that ignored it ends with 0 instead of hanging the test.
        try input.fileHandleForWriting.close()
        let status = started.waitUntilExit()
        #expect(status == 128 + SIGTERM, "a child that inherited the blocked SIGTERM would end only at its input's end")
    }

    @Test func theEndOfInputEndsTheChildAndItIsReapedOnce() throws {
        let input = Pipe()
        let child = try Subprocess(
            "cat", [], standardInput: .descriptor(input.fileHandleForReading.fileDescriptor), standardOutput: .null)
        #expect(child.isRunning)
        try input.fileHandleForWriting.close()
        #expect(child.waitUntilExit() == 0)
        #expect(child.waitUntilExit() == 0, "a second wait answers the recorded status")
        #expect(!child.isRunning)
    }

    @Test func theChildInheritsNoDescriptorAboveTheStandardStreams() throws {
        // A descriptor without close-on-exec, as sockets and pipes that other tests open meanwhile are.
        // F_DUPFD takes the lowest free descriptor from 200 up; dup2 onto a fixed number would close whatever a
        // test running in parallel holds there (an emulator's listening socket, once).
        let pipe = Pipe()
        let high = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_DUPFD, Int32(200))
        try #require(high >= 200)
        defer { close(high) }
        #expect(fcntl(high, F_GETFD) & FD_CLOEXEC == 0)
        let result = try ChildProcess.run(["sh", "-c", "if [ -e /proc/$$/fd/\(high) ]; then echo kept; else echo closed; fi; [ -e /proc/$$/fd/1 ] && echo out"])
        #expect(result.status == 0)
        #expect(result.text == "closed\nout")
    }

    @Test func aProgramThatIsNotThereIsAStartFailure() {
        #expect(throws: Subprocess.StartFailure.self) {
            try Subprocess("/nonexistent/reception-no-such-program", [])
        }
    }
}

import Foundation

/// The `reception-emulator` command line: `--port`, `--data`, `--host`, `--ping-interval`, `--chaos-seed`,
/// `--import`, `--export-on-exit`, `--seed`, `--apns-host`, `--apns-sandbox-host`, `--apns-ca-file`
/// (Docs/Emulator.md).
public enum EmulatorCommand {
    /// The usage text.
    public static let usage = """
        usage: reception-emulator [--port N] [--data DIR] [--host IPv4] [--ping-interval SECONDS]
                                  [--chaos-seed N] [--import FILE] [--export-on-exit FILE] [--seed demo]
                                  [--apns-host HOST[:PORT]] [--apns-sandbox-host HOST[:PORT]] [--apns-ca-file FILE]
          --port            port to listen on (default 8080; 0 = any free port)
          --data            folder of the emulator database (default ./reception-emulator-data)
          --host            numeric IPv4 address to listen on (default 127.0.0.1)
          --ping-interval   seconds between ': ping' lines on idle event streams (default 20)
          --chaos-seed      seed of the faults' probability and jitter draws (default: random)
          --import          replace the state with this snapshot file before serving
          --export-on-exit  write a snapshot of the state to this file on SIGTERM or SIGINT
          --seed demo       add demo customers and conversations when there are no devices yet
          --apns-host       send pushes to this test server instead of Apple's two APNs hosts
          --apns-sandbox-host  send sandbox devices' pushes to this test server (after --apns-host)
          --apns-ca-file    PEM certificates the APNs server's certificate must chain to (a test server's own;
                            default: the system's); a test server on this machine given without it is not
                            verified, Apple's hosts always are
        """

    /// What the command line asks for: the emulator's configuration and the snapshot files.
    public struct Options: Sendable {
        /// The emulator's configuration.
        public var configuration: EmulatorConfiguration
        /// `--import FILE`: a snapshot that replaces the state before the emulator serves.
        public var importFile: String?
        /// `--export-on-exit FILE`: where a snapshot is written when SIGTERM or SIGINT arrives.
        public var exportOnExit: String?
        /// `--seed demo`: demo customers for an emulator without devices.
        public var seed: String?
    }

    /// Parses `arguments` into a configuration, or returns a message for the user.
    public static func configuration(arguments: [String]) -> Result<EmulatorConfiguration, UsageError> {
        options(arguments: arguments).map(\.configuration)
    }

    /// Parses `arguments` into options, or returns a message for the user.
    public static func options(arguments: [String]) -> Result<Options, UsageError> {
        var configuration = EmulatorConfiguration(dataDirectory: "reception-emulator-data")
        var importFile: String?
        var exportOnExit: String?
        var seed: String?
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if flag == "--help" || flag == "-h" { return .failure(UsageError(message: usage)) }
            guard let value = remaining.popFirst() else { return .failure(UsageError(message: "\(flag) needs a value\n\(usage)")) }
            switch flag {
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    return .failure(UsageError(message: "--port needs 0…65535"))
                }
                configuration.port = port
            case "--data": configuration.dataDirectory = value
            case "--host": configuration.host = value
            case "--ping-interval":
                guard let seconds = Double(value), seconds > 0, seconds < 45 else {
                    return .failure(UsageError(message: "--ping-interval needs seconds between 0 and 45"))
                }
                configuration.pingInterval = seconds
            case "--chaos-seed":
                guard let chaos = UInt64(value) else {
                    return .failure(UsageError(message: "--chaos-seed needs a whole number 0…18446744073709551615"))
                }
                configuration.chaosSeed = chaos
            case "--apns-host", "--apns-sandbox-host":
                guard APNsHosts.isValid(value) else {
                    return .failure(UsageError(message: "\(flag) needs HOST or HOST:PORT (a name or IPv4 address, port 1…65535)"))
                }
                if flag == "--apns-host" { configuration.apnsHost = value } else { configuration.apnsSandboxHost = value }
            case "--apns-ca-file":
                guard FileManager.default.isReadableFile(atPath: value) else {
                    return .failure(UsageError(message: "--apns-ca-file: cannot read \(value)"))
                }
                configuration.apnsCAFile = value
            case "--import": importFile = value
            case "--export-on-exit": exportOnExit = value
            case "--seed":
                guard ReceptionEmulator.seedNames.contains(value) else {
                    return .failure(UsageError(message: "--seed knows: \(ReceptionEmulator.seedNames.joined(separator: ", "))"))
                }
                seed = value
            default: return .failure(UsageError(message: "unknown option \(flag)\n\(usage)"))
            }
        }
        return .success(Options(configuration: configuration, importFile: importFile, exportOnExit: exportOnExit, seed: seed))
    }

    /// The warning for a `--host` other than loopback (`127.x.x.x`): the emulator speaks plain HTTP, so the admin
    /// token, session secrets and access tokens cross the network in clear text. `nil` for loopback.
    public static func exposureWarning(host: String) -> String? {
        if EmulatorConfiguration.isLoopback(host) { return nil }
        return """
            WARNING: listening on \(host), not loopback. The emulator speaks plain HTTP: the admin token, session \
            secrets and access tokens travel in clear text, and anyone who can reach this address can read and \
            change every conversation. Use it on a network you trust only.
            """
    }

    /// Writes a snapshot to `file` (replacing it whole) when SIGTERM or SIGINT arrives, then exits: 0 once written,
    /// 1 when it could not be. Returns the signal sources, which must stay alive.
    static func exportOnSignals(_ emulator: ReceptionEmulator, to file: String) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                do {
                    try Data(try emulator.exportSnapshot()).write(to: URL(fileURLWithPath: file), options: .atomic)
                    FileHandle.standardError.write(Data("reception-emulator: snapshot written to \(file)\n".utf8))
                    exit(0)
                } catch {
                    FileHandle.standardError.write(Data("reception-emulator: cannot write \(file): \(error)\n".utf8))
                    exit(1)
                }
            }
            source.resume()
            return source
        }
    }

    /// A command-line mistake, with what to print.
    public struct UsageError: Error {
        /// The message for standard error.
        public var message: String
    }

    /// Starts the emulator, prints where it listens and its credentials, and serves until the process is killed.
    /// Returns the exit status when it cannot start.
    public static func run(arguments: [String]) -> Int32 {
        let options: Options
        switch self.options(arguments: arguments) {
        case .success(let value): options = value
        case .failure(let error):
            FileHandle.standardError.write(Data((error.message + "\n").utf8))
            return 2
        }
        let configuration = options.configuration
        do {
            let emulator = try ReceptionEmulator(configuration: configuration)
            if let file = options.importFile {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                try emulator.importSnapshot(Array(bytes))
            }
            try emulator.start()
            if options.seed != nil, !(try emulator.seedDemo()) {
                FileHandle.standardError.write(Data("reception-emulator: --seed demo skipped: the data already has devices\n".utf8))
            }
            let credentials = emulator.credentials
            let banner = """
                Reception emulator listening on \(emulator.baseURL)
                  App ID:           \(credentials.appId)
                  Admin token:      \(credentials.adminToken)
                  Identity secret:  \(credentials.identitySecret ?? "(none)")
                Dashboard: \(emulator.dashboardURL)  (signs in \(emulator.dashboardOwnerName), an Owner)
                  Database:         \(configuration.dataDirectory)/emulator.sqlite
                The credentials are kept in the database; the same ones print on every start. The dashboard URL
                signs a browser in as that team member; every start prints a new one. Owners invite members (Owner
                or Agent) in Settings → Team members, which shows each member's own link.

                """
            // Written straight to the file descriptor so it shows at once even when stdout is a pipe.
            FileHandle.standardOutput.write(Data(banner.utf8))
            if let problem = emulator.dashboardProblem {
                FileHandle.standardError.write(Data("reception-emulator: error: \(problem)\n".utf8))
            }
            if let note = APNsTrust.startupNote(configuration, trust: emulator.apnsTrust) {
                FileHandle.standardError.write(Data((note + "\n").utf8))
            }
            if let warning = exposureWarning(host: configuration.host) {
                FileHandle.standardError.write(Data((warning + "\n").utf8))
            }
            let exits = options.exportOnExit.map { exportOnSignals(emulator, to: $0) } ?? []
            // The emulator must outlive the wait: a release build may otherwise free it after its last use above,
            // and every request is then answered 503 "shutting down" while the server keeps listening.
            while true { withExtendedLifetime((emulator, exits)) { _ = sleep(3600) } }
        } catch {
            FileHandle.standardError.write(Data("reception-emulator: \(error)\n".utf8))
            return 1
        }
    }
}

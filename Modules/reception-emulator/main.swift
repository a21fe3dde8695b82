// reception-emulator: runs the Reception emulator (Docs/Emulator.md). The logic lives in the library so that it
// can be tested; this file only hands over the arguments.
import Foundation
import ReceptionEmulator

exit(EmulatorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))

// reception-chat: a terminal host app that embeds ReceptionKit the way an iOS app would (Docs/HostApp.md).
// Top-level code is main-actor isolated, so this file only hands over the arguments; the logic lives in ChatApp.
import Foundation

exit(await ChatApp.run(arguments: Array(CommandLine.arguments.dropFirst())))

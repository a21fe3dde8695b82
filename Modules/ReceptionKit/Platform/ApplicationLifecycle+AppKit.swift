#if canImport(AppKit) && !targetEnvironment(macCatalyst)
    import AppKit
    import Foundation
    import ReceptionCore

    extension NotificationLifecycleMonitor {
        /// The app's lifecycle from AppKit's application notifications: did become active, did resign active
        /// (visible, another app in front: inactive), did hide (background), did unhide (inactive until it becomes
        /// active). The default `ReceptionConfiguration.lifecycle` on macOS. It starts active and does not read
        /// `NSApplication.shared`, which would create an application object in a command-line tool. Compiled only
        /// where AppKit exists, which the Linux machines this package is built on are not; the mapping is
        /// `NotificationLifecycleMonitor`'s, tested on Linux (Docs/Apple.md).
        @_optimize(size)
        public static func nsApplication(center: NotificationCenter = .default) -> NotificationLifecycleMonitor {
            NotificationLifecycleMonitor(
                center: center,
                transitions: [
                    (NSApplication.didBecomeActiveNotification, .active),
                    (NSApplication.didResignActiveNotification, .inactive),
                    (NSApplication.didHideNotification, .background),
                    (NSApplication.didUnhideNotification, .inactive),
                ],
                initial: .active)
        }
    }
#endif

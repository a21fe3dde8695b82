#if canImport(UIKit) && !os(watchOS)
    import Foundation
    import ReceptionCore
    import UIKit

    extension NotificationLifecycleMonitor {
        /// The app's lifecycle from UIKit's application notifications: did become active, did enter background,
        /// will enter foreground (visible again, not yet active). The default `ReceptionConfiguration.lifecycle` on
        /// iOS. Compiled only where UIKit exists, which the Linux machines this package is built on are not; the
        /// mapping is `NotificationLifecycleMonitor`'s, tested on Linux (Docs/Apple.md).
        @_optimize(size)
        public static func uiApplication(center: NotificationCenter = .default) -> NotificationLifecycleMonitor {
            let monitor = NotificationLifecycleMonitor(
                center: center, active: UIApplication.didBecomeActiveNotification,
                background: UIApplication.didEnterBackgroundNotification,
                inactive: UIApplication.willEnterForegroundNotification, initial: .active)
            // `applicationState` is main-actor state. UIKit posts these notifications on the main thread too, so a
            // read there is never older than a notification the monitor has already seen.
            Task { @MainActor [weak monitor] in
                let state: AppLifecycleState =
                    switch UIApplication.shared.applicationState {
                    case .active: .active
                    case .inactive: .inactive
                    case .background: .background
                    @unknown default: .inactive
                    }
                monitor?.set(state)
            }
            return monitor
        }
    }
#endif

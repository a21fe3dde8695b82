#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The connection status above the composer (spec 7.18): "No connection", "Connecting", "Connected",
    /// "Live updates paused", each with its sign.
    struct ConnectionBannerView: View {
        let banner: ChatPresentation.Banner

        @inline(never) @_optimize(size) var body: some View {
            HStack(spacing: 6) {
                sign
                Text(verbatim: banner.text)
            }
            .chatFont(.footnote, secondary: true)
            .frame(maxWidth: .infinity)
            .padding(horizontal: 12, vertical: 6)
            .background(tint.opacity(0.12))
            .accessibilityElement(children: .combine)
            .accessibilityAddTraits(.updatesFrequently)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var sign: some View {
            if banner.kind == .connecting {
                ProgressView().controlSize(.mini).accessibilityHidden(true)
            } else if let symbol {
                // One view per symbol, as when each sign was a case of its own: a new sign fades in as the banner
                // animates, rather than changing in place.
                Image(systemName: symbol).foregroundStyle(tint).accessibilityHidden(true).id(symbol)
            }
        }

        /// The sign's symbol; `nil` while connecting (a spinner) or hidden.
        @inline(never) @_optimize(size) private var symbol: String? {
            switch banner.kind {
            case .offline: "wifi.slash"
            case .connected: "checkmark.circle.fill"
            case .paused: "pause.circle.fill"
            case .connecting, .hidden: nil
            }
        }

        @inline(never) @_optimize(size) private var tint: Color {
            switch banner.kind {
            case .offline: .red
            case .connecting, .hidden: .secondary
            case .connected: .green
            case .paused: .orange
            }
        }
    }
#endif

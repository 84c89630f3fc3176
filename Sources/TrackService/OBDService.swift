import Logging
import ServiceLifecycle
import TrackConfig
import TrackCore
import TrackInput

/// Talks to the OBD-II adapter trackd.conf names (`obd.adapter`) and passes what it reports, in order, into the
/// tracker's inbox; a reload that changes the adapter lets go of the old one and talks to the new. Without an adapter
/// it waits for a reload that names one. An adapter that can never work (a path that is not a serial device) is
/// said once in the journal and waits for a reload as well: the car's data is an addition, and GPS tracking goes on
/// without it.
public struct OBDService: Service, CustomStringConvertible {
    private let settings: LiveOBDConfiguration
    private let inbox: TrackerInbox
    private let dialogue: ELM327Dialogue.Configuration
    /// How `obd.adapter: auto` looks.
    private let search: OBDAutoSearch
    private let logger: Logger

    public init(settings: LiveOBDConfiguration, inbox: TrackerInbox,
                dialogue: ELM327Dialogue.Configuration = ELM327Dialogue.Configuration(),
                search: OBDAutoSearch = OBDAutoSearch(), logger: Logger) {
        self.settings = settings
        self.inbox = inbox
        self.dialogue = dialogue
        self.search = search
        self.logger = logger
    }

    public var description: String { "obd" }

    public func run() async {
        let inbox = self.inbox
        let dialogue = self.dialogue
        let search = self.search
        let logger = self.logger
        let changes = settings.changes
        let initial = settings.configuration
        await cancelWhenGracefulShutdown {
            var configuration = initial
            var next = changes.makeAsyncIterator()
            while !Task.isCancelled {
                inbox.deliver(.adapter(configuration.adapter))
                let address = configuration.adapter
                let changed: OBDConfiguration? = await withTaskGroup(of: Void.self) { group in
                    if let address {
                        group.addTask {
                            do {
                                try await OBDSource(address: address, configuration: dialogue, search: search).run { event in
                                    inbox.deliver(.event(event))
                                }
                            } catch is CancellationError {
                                // A reload or the stop.
                            } catch {
                                logger.error("OBD adapter cannot be used: trackd goes on by GPS alone until trackd.conf names another",
                                             metadata: ["adapter": "\(address)", "error": "\(error)"])
                                inbox.deliver(.event(.state(.lost("\(error)"))))
                            }
                        }
                    }
                    let changed = await next.next()
                    group.cancelAll()
                    return changed
                }
                guard let changed else { return }
                logger.notice("OBD adapter changed by a reload", metadata: [
                    "from": "\(configuration.adapter.map { "\($0)" } ?? "none")",
                    "to": "\(changed.adapter.map { "\($0)" } ?? "none")",
                ])
                configuration = changed
            }
        }
    }
}

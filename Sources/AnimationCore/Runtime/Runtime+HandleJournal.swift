/// A handle table that can record what an operation hands out and frees,
/// and be put back as it was (`SlotTable.beginJournal`).
package protocol JournaledTable: AnyObject {
    func beginJournal() -> Bool
    func endJournal()
    @discardableResult func rewindJournal() -> Bool
}

extension SlotTable: JournaledTable {}

extension Runtime {
    /// The tables an operation that may be refused midway is recording.
    package struct HandleJournal {
        fileprivate let tables: [any JournaledTable]

        /// Stops recording; what was made stays.
        package func end() { for t in tables { t.endJournal() } }

        /// Stops recording and puts each table back as it was when the
        /// journal began, once the operation has destroyed all it made:
        /// a refused operation then spends no handle generation and
        /// retires no slot (see `SlotTable.rewindJournal`).
        package func rewind() { for t in tables { t.rewindJournal() } }
    }

    /// Starts recording the handles this runtime's tables, and `extra`
    /// (tables above the core), hand out and free. For an operation that
    /// is undone when refused and whose handles nobody outside has seen
    /// until it succeeds (a machine restore). A table already recording
    /// is left to the journal that began it.
    package func beginHandleJournal(also extra: [any JournaledTable] = []) -> HandleJournal {
        let all: [any JournaledTable] = [layers, definitions, instances, barriers, transactions, timers, readers] + extra
        return HandleJournal(tables: all.filter { $0.beginJournal() })
    }
}

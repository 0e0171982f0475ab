import AnimationCore
import FoundationEssentials
@testable import StateMachines
import Testing

@Suite("The machines that come with animrt load by name, from text embedded when the library is built")
struct LibraryTests {
    @Test("the four seeds' machines are shipped, and each embedded text is its JSON file, byte for byte")
    func embeddedIsTheFile() throws {
        #expect(MachineHost.shippedNames == ["indicatorBar", "networkButton", "progressCard", "streakCard"])
        for entry in ShippedMachines.all {
            let data = try Data(contentsOf: URL(filePath: repositoryRoot + "/Sources/StateMachines/Library/" + entry.file))
            #expect(String(decoding: data, as: UTF8.self) == entry.json + "\n" || String(decoding: data, as: UTF8.self) == entry.json, "\(entry.file)")
        }
    }

    @Test("load(named:) finds a shipped machine; a registered name may not shadow one; an unknown name lists the known ones")
    func byName() throws {
        let h = Harness()
        for name in MachineHost.shippedNames {
            let d = try h.host.definition(try h.host.load(named: name))
            #expect(d.name == name)
        }
        expectError(.exists, ["'progressCard' is a machine that comes with animrt"]) { () throws(AnimrtError) in
            try h.host.register(definition: MachineHost.shippedDefinition(named: "progressCard")!, as: "progressCard")
        }
        expectError(.notFound, ["no machine definition is named 'progresCard'", "did you mean 'progressCard'"]) { () throws(AnimrtError) in
            _ = try h.host.load(named: "progresCard")
        }
        expectError(.notFound, ["(known: indicatorBar, networkButton, progressCard, streakCard)"]) { () throws(AnimrtError) in
            _ = try h.host.load(named: "toast")
        }
        try h.host.register(definition: MachineHost.shippedDefinition(named: "indicatorBar")!, as: "myBar")
        #expect(h.host.libraryNames == ["indicatorBar", "myBar", "networkButton", "progressCard", "streakCard"])
    }
}

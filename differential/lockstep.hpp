// lockstep.hpp — one event sequence through the model (model/spec) and the
// reference (model/reference) side by side, compared after every event:
// reports, returned pointers and their tags, pfns, every page's KASAN tag and
// PG_skip_kasan_poison, every granule's memory tag and zero/non-zero data,
// the per-CPU sampling counter, TCF and TFSR state, and how many random tags
// each drew. The model draws its tags from picks (spec::PickChooser); the
// reference is handed the same values (QueuedTags), so a difference is a
// difference in what the two do with them.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "event.hpp"
#include "model.hpp"
#include "ref_kernel.hpp"

namespace tagproof::differential {

class Lockstep {
public:
    Lockstep(const kernel::Variant& v, const DiffConfig& c, std::vector<std::uint8_t> picks,
             reference::RefMutation mutation = reference::RefMutation::none, unsigned pages = 64);

    // Runs one event on both. "" when they agree; otherwise what differs,
    // both states around it, and the trace so far.
    std::string step(const Event& e);
    // Runs events until the first mismatch ("" if none).
    std::string run(const std::vector<Event>& events);

    // The trace as scenario-file lines, and as a scenario file for `tagproof run`.
    const std::vector<std::string>& trace() const { return lines_; }
    std::string scenario(const std::string& name = "differential_trace",
                         const std::string& header = "the differential check (model vs reference)") const;
    std::string describe_config() const;
    const spec::Model& model() const { return *model_; }
    const reference::RefKernel& ref() const { return *ref_; }

private:
    struct Handle {
        enum Kind { page, ptr, vmalloc, stack, pgtable, alias } kind = ptr;
        std::string name;  // the scenario variable the pointer is in
        bool live = true;
        std::int64_t size = 0;
        spec::Ptr mp;            // the model's pointer
        int mobj = -1;           // the model's page object (page handles)
        std::uint64_t rp = 0;    // the reference's pointer value
        std::int64_t rpfn = -1;  // the reference's pfn (page handles)
    };
    const kernel::Variant& v_;
    DiffConfig cfg_;
    spec::PickChooser chooser_;
    reference::QueuedTags tags_;
    std::unique_ptr<spec::Model> model_;
    std::unique_ptr<reference::RefKernel> ref_;
    std::vector<std::string> gfps_;
    std::vector<Handle> handles_;
    std::vector<std::string> lines_;
    int next_ = 0;
    std::size_t fed_ = 0;  // model tags already queued for the reference
    void feed();           // queue the tags the model drew since
    unsigned pages_;

    Handle* pick(std::uint32_t pick, bool (*ok)(const Handle&));
    std::string apply(const Event& e, bool& ran);  // runs the event; a mismatch in a result, or ""
    std::string compare_state(std::size_t reports_before_m, std::size_t reports_before_r) const;
    bool same_granules(std::uint64_t pfn) const;  // every granule of the page: tag and zero-or-not
    std::string dump_page(std::uint64_t pfn) const;
    std::string dump_cpus() const;
};

}  // namespace tagproof::differential

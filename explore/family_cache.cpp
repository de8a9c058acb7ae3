// family_cache.cpp — see family_cache.hpp.
#include "family_cache.hpp"

#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "build_cache.hpp"
#include "corpus_cache.hpp"
#include "hash128.hpp"
#include "kept_by_answers.hpp"
#include "kept_fields.hpp"

#include <zlib.h>

namespace tagproof::explore {

namespace {

using kept::get;
using kept::put;

const char kMagic[] = "tagproof family exploration 4";

std::string key_dir(const std::string& key) {
    return scenario::corpus_cache_dir() + "/families/" + hash128_hex(hash128(key));
}

// The graph and verdicts as four-byte numbers and a table of the strings
// (an event line recurs on thousands of edges).
class Blob {
public:
    void u32(std::uint32_t x) {
        for (int i = 0; i < 4; ++i) s_.push_back(char(x >> (8 * i)));
    }
    void str(const std::string& x) {
        auto [it, fresh] = index_.try_emplace(x, std::uint32_t(table_.size()));
        if (fresh) table_.push_back(x);
        u32(it->second);
    }
    std::string bytes() const {
        Blob head;
        head.u32(std::uint32_t(table_.size()));
        for (const auto& t : table_) {
            head.u32(std::uint32_t(t.size()));
            head.s_ += t;
        }
        return head.s_ + s_;
    }

private:
    std::string s_;
    std::vector<std::string> table_;
    std::unordered_map<std::string, std::uint32_t> index_;
};

class Unblob {
public:
    explicit Unblob(const std::string& b) : b_(b) {
        const std::uint32_t n = u32();
        for (std::uint32_t i = 0; ok_ && i < n; ++i) {
            const std::uint32_t len = u32();
            if (!ok_ || b_.size() - at_ < len) {
                ok_ = false;
                break;
            }
            table_.push_back(b_.substr(at_, len));
            at_ += len;
        }
    }
    std::uint32_t u32() {
        if (!ok_ || b_.size() - at_ < 4) {
            ok_ = false;
            return 0;
        }
        std::uint32_t x = 0;
        for (int i = 0; i < 4; ++i) x |= std::uint32_t(std::uint8_t(b_[at_ + i])) << (8 * i);
        at_ += 4;
        return x;
    }
    const std::string& str() {
        static const std::string none;
        const std::uint32_t i = str_index();
        return ok_ ? table_[i] : none;
    }
    // a string's index in the table (0 when not ok())
    std::uint32_t str_index() {
        const std::uint32_t i = u32();
        if (!ok_ || i >= table_.size()) {
            ok_ = false;
            return 0;
        }
        return i;
    }
    std::vector<std::string> take_table() { return std::move(table_); }
    bool ok() const { return ok_; }
    bool done() const { return ok_ && at_ == b_.size(); }

private:
    const std::string& b_;
    std::size_t at_ = 0;
    bool ok_ = true;
    std::vector<std::string> table_;
};

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + '\n';
    return s;
}
std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> v;
    for (std::size_t a = 0, b; (b = s.find('\n', a)) != std::string::npos; a = b + 1) v.push_back(s.substr(a, b - a));
    return v;
}

// The summary: what a review reads (the counts, the verdicts).
std::string summary_blob(const FamilyResult& r) {
    Blob b;
    b.u32(std::uint32_t(r.states));
    b.u32(std::uint32_t(r.transitions));
    b.u32(std::uint32_t(r.initial));
    b.u32(r.truncated);
    b.u32(std::uint32_t(r.refused));
    b.u32(std::uint32_t(r.sampled_events));
    b.u32(std::uint32_t(r.verdicts.size()));
    for (const auto& v : r.verdicts) {
        b.str(v.invariant);
        b.u32(v.violated);
        b.str(v.message);
        b.str(joined(v.path));
    }
    return b.bytes();
}

// The graph: its edges in boost::edges' order, which is the order they were
// added (the explorer expands vertices in the order it numbered them): read
// back in that order, every vertex's out- and in-edges are as they were.
std::string graph_blob(const FamilyResult& r) {
    Blob b;
    r.for_each_edge([&](std::size_t s, std::size_t t, const std::string& line, const std::vector<std::string>& violated,
                        const std::string& message) {
        b.u32(std::uint32_t(s));
        b.u32(std::uint32_t(t));
        b.str(line);
        b.str(joined(violated));
        b.str(message);
    });
    return b.bytes();
}

// Reads a summary into `into` (whole, or `into` untouched and false).
bool read_summary(const std::string& blob, const FamilyOptions& o, FamilyResult& into) {
    Unblob u(blob);
    FamilyResult r;
    r.options = o;
    r.states = u.u32();
    r.transitions = u.u32();
    r.initial = u.u32();
    const std::uint32_t truncated = u.u32();
    r.refused = u.u32();
    r.sampled_events = u.u32();
    // every vertex but the first was reached by an edge
    if (!u.ok() || truncated > 1 || r.initial >= std::max<std::size_t>(r.states, 1) || r.states > r.transitions + 1)
        return false;
    r.truncated = truncated;
    const std::uint32_t verdicts = u.u32();
    if (!u.ok() || verdicts > 64) return false;
    for (std::uint32_t i = 0; i < verdicts && u.ok(); ++i) {
        FamilyVerdict v;
        v.invariant = u.str();
        const std::uint32_t violated = u.u32();
        v.violated = violated == 1;
        v.message = u.str();
        v.path = split(u.str());
        if (violated > 1) return false;
        r.verdicts.push_back(std::move(v));
    }
    if (!u.done()) return false;
    into = std::move(r);
    return true;
}

// A kept graph as read: its strings, those an edge's `violated` names split
// at newlines into its list, and its edges as indices into them, in order.
struct KeptEdges {
    struct Edge {
        std::uint32_t source, target, line, violated, message;
    };
    std::vector<std::string> strings;
    std::vector<std::vector<std::string>> lists;
    std::vector<Edge> edges;
};

// A graph blob of `edges` edges over `vertices` vertices, whole and in range,
// else null.
std::shared_ptr<const KeptEdges> read_edges(const std::string& blob, std::size_t vertices, std::size_t edges) {
    if (edges > blob.size() / 20) return nullptr;  // a count past the blob's size: no entry of ours
    Unblob u(blob);
    auto k = std::make_shared<KeptEdges>();
    k->edges.reserve(edges);
    for (std::size_t i = 0; i < edges && u.ok(); ++i) {
        KeptEdges::Edge e;
        e.source = u.u32();
        e.target = u.u32();
        e.line = u.str_index();
        e.violated = u.str_index();
        e.message = u.str_index();
        if (e.source >= vertices || e.target >= vertices) return nullptr;
        k->edges.push_back(e);
    }
    if (!u.done()) return nullptr;
    k->strings = u.take_table();
    k->lists.resize(k->strings.size());
    std::vector<char> listed(k->strings.size(), 0);
    for (const auto& e : k->edges)
        if (!listed[e.violated]) listed[e.violated] = 1, k->lists[e.violated] = split(k->strings[e.violated]);
    return k;
}

// The blob deflated (zlib, fastest level): a graph's edges are runs of small
// indices, five times smaller so (a suite's explorations were 400 MB raw).
std::string deflated(const std::string& raw) {
    uLongf n = compressBound(uLong(raw.size()));
    std::string out(n, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(raw.data()),
                  uLong(raw.size()), 1) != Z_OK)
        return "";
    out.resize(n);
    return out;
}
std::optional<std::string> inflated(const std::string& packed, std::uint64_t size) {
    // deflate expands at most 1032 to 1: a larger size is a torn entry, not an allocation to make
    if (size > std::uint64_t(packed.size()) * 1032 + 64) return std::nullopt;
    std::string out(size, '\0');
    uLongf n = uLongf(size);
    if (uncompress(reinterpret_cast<Bytef*>(out.data()), &n, reinterpret_cast<const Bytef*>(packed.data()),
                   uLong(packed.size())) != Z_OK || n != size)
        return std::nullopt;
    return out;
}

kernel::KeptByAnswers& store() {
    static kernel::KeptByAnswers s(kMagic, ".graph");
    return s;
}

// The payload: the summary, and the graph blob's size and the blob deflated.
std::string payload_of(const FamilyResult& r) {
    const std::string raw = graph_blob(r), packed = deflated(raw);
    if (packed.empty()) return "";
    std::ostringstream o;
    put(o, summary_blob(r));
    put(o, std::uint64_t(raw.size()));
    put(o, packed);
    return o.str();
}

// A payload read into `into` (whole, or `into` untouched and false): the
// summary, and the graph checked whole and kept as read; FamilyResult::graph()
// builds the Boost graph from it only when asked.
bool read_payload(const std::string& payload, const FamilyOptions& o, FamilyResult& into) {
    std::istringstream in(payload);
    std::string summary, packed;
    std::uint64_t size = 0;
    if (!get(in, summary) || !get(in, size) || !get(in, packed) || in.peek() != std::char_traits<char>::eof())
        return false;
    const auto raw = inflated(packed, size);
    FamilyResult r;
    if (!raw || !read_summary(summary, o, r)) return false;
    auto kept = read_edges(*raw, r.states, r.transitions);
    if (!kept) return false;
    r.kept_edges_ = [kept](const FamilyResult::EdgeFn& f) {
        for (const auto& e : kept->edges)
            f(e.source, e.target, kept->strings[e.line], kept->lists[e.violated], kept->strings[e.message]);
    };
    into = std::move(r);
    return true;
}

void put_family(std::ostream& k, const Family& f) {
    put(k, f.name);
    put(k, std::uint64_t(f.pages));
    put(k, std::uint64_t(f.config.size()));
    for (const auto& c : f.config) put(k, c);
    put(k, std::uint64_t(f.setup.size()));
    for (const auto& s : f.setup) put(k, s);
    put(k, std::uint64_t(f.kinds.size()));
    for (const auto& a : f.kinds) {
        for (const std::string* s : {&a.stem, &a.alloc, &a.free, &a.realloc, &a.shrink, &a.touch}) put(k, *s);
        for (std::uint64_t n : {a.size, std::uint64_t(a.slots), std::uint64_t(a.per_cpu), std::uint64_t(a.refree),
                                std::uint64_t(a.accessed), a.realloc_size, a.shrink_size, std::uint64_t(a.page)})
            put(k, n);
    }
    put(k, std::uint64_t(f.globals.size()));
    for (const auto& g : f.globals) put(k, g);
    // review_depth, review_other_boots and walked say who explores it, not what an exploration does
}

}  // namespace

std::string family_key(const FamilyOptions& o) {
    if (scenario::corpus_cache_dir().empty()) return "";
    const std::string id = own_build_id();
    if (id.empty()) return "";
    std::ostringstream k;
    put(k, std::string(kMagic));
    put(k, "build-id " + id);
    put_family(k, o.family);
    put(k, o.config.boot);
    put(k, std::uint64_t(o.config.mte));
    put(k, std::uint64_t(o.mode));
    put(k, std::uint64_t(o.depth));
    put(k, std::uint64_t(o.max_states));
    put(k, std::uint64_t(o.max_bytes));
    return k.str();
}

bool family_kept(const std::string& key, const FamilyOptions& o, const kernel::Variant& v, FamilyResult& into) {
    if (key.empty()) return false;
    auto payload = store().find(key_dir(key), key, v);
    return payload && read_payload(*payload, o, into);
}

void keep_family(const std::string& key, const kernel::CallTranscript& asked, const FamilyResult& r) {
    if (key.empty()) return;
    if (const std::string payload = payload_of(r); !payload.empty()) store().keep(key_dir(key), key, asked, payload);
}

}  // namespace tagproof::explore

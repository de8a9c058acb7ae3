// config_keys.cpp — see config_keys.hpp. The ranges come from what one model
// instance holds (ModelConfig) and what the kernel has (NUMA nodes: the
// model's stacks and page allocator know two).
#include "config_keys.hpp"

#include <vector>

#include "config.hpp"
#include "error.hpp"
#include "model.hpp"
#include "number.hpp"

namespace tagproof::scenario {

namespace {

struct Key {
    const char* name;
    enum Kind { yes_no, number, check_style, sample_phase } kind;
    std::uint64_t lo = 0, hi = 0;
};

const std::vector<Key>& keys() {
    using M = spec::ModelConfig;
    static const std::vector<Key> k = {
        {"kasan_vmalloc", Key::yes_no},
        {"vmap_stack", Key::yes_no},
        {"lockdep", Key::yes_no},
        {"slub_rcu_debug", Key::yes_no},
        {"kfence", Key::yes_no},
        {"deferred_struct_page_init", Key::yes_no},
        {"mte", Key::yes_no},
        {"mte_asymm", Key::yes_no},
        {"mte_store_only", Key::yes_no},
        {"cpus", Key::number, 1, std::uint64_t(M::kMaxCpus)},
        {"nodes", Key::number, 1, 2},
        {"pages", Key::number, M::kMinPages, M::kMaxPages},
        {"initial_mem_tag", Key::number, 0, 0xFF},
        {"check_style", Key::check_style},
        {"sample_phase", Key::sample_phase},
    };
    return k;
}

const Key& find(const std::string& key, const std::string& where) {
    for (const auto& k : keys())
        if (key == k.name) return k;
    std::string known;
    for (const auto& k : keys()) known += (known.empty() ? "" : ", ") + std::string(k.name);
    throw InputError(where, "unknown config key '" + key + "'; known: " + known);
}

}  // namespace

bool config_yes(const std::string& key, const std::string& v, const std::string& where) {
    if (v == "y" || v == "1" || v == "on" || v == "yes") return true;
    if (v == "n" || v == "0" || v == "off" || v == "no") return false;
    throw InputError(where, "config " + key + "=" + v + ": expected y or n");
}

std::uint64_t config_number(const std::string& key, const std::string& v, const std::string& where) {
    const Key& k = find(key, where);
    const std::string range = std::to_string(k.lo) + ".." + std::to_string(k.hi);
    std::uint64_t n = 0;
    const NumberRead r = read_number(v, n);
    if (r == NumberRead::beyond_u64 || r == NumberRead::negative)
        throw InputError(where, "config " + key + "=" + v + ": out of range (" + range + ")");
    if (r != NumberRead::ok) throw InputError(where, "config " + key + "=" + v + ": expected a number (" + range + ")");
    if (n < k.lo || n > k.hi) throw InputError(where, "config " + key + "=" + v + ": out of range (" + range + ")");
    return n;
}

void check_config(const std::string& key, const std::string& v, const std::string& where) {
    const Key& k = find(key, where);
    switch (k.kind) {
        case Key::yes_no: config_yes(key, v, where); return;
        case Key::number: config_number(key, v, where); return;
        case Key::check_style: parse_check_style(v, where); return;
        case Key::sample_phase:
            if (v != "any" && v != "0") throw InputError(where, "config sample_phase is 'any' or 0");
            return;
    }
}

}  // namespace tagproof::scenario

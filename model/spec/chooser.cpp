// chooser.cpp — see chooser.hpp.
#include "chooser.hpp"

#include <cstdio>
#include <numeric>

namespace tagproof::spec {

Prob Prob::times(std::uint64_t n, std::uint64_t d) const {
    Prob r = *this;
    r.approx = approx * double(n) / double(d);
    if (!exact) return r;
    std::uint64_t g1 = std::gcd(num, d), g2 = std::gcd(n, den);
    std::uint64_t a = num / g1, b = n / g2, c = den / g2, e = d / g1;
    unsigned __int128 nn = (unsigned __int128)a * b, dd = (unsigned __int128)c * e;
    if (nn >> 64 || dd >> 64) {
        r.exact = false;
        return r;
    }
    r.num = std::uint64_t(nn);
    r.den = std::uint64_t(dd);
    return r;
}

Prob Prob::plus(const Prob& o) const {
    Prob r;
    r.approx = approx + o.approx;
    r.exact = exact && o.exact;
    if (!r.exact) return r;
    std::uint64_t g = std::gcd(den, o.den);
    unsigned __int128 d = (unsigned __int128)(den / g) * o.den;
    unsigned __int128 n = (unsigned __int128)num * (o.den / g) + (unsigned __int128)o.num * (den / g);
    if (d >> 64 || n >> 64) {
        r.exact = false;
        return r;
    }
    std::uint64_t nn = std::uint64_t(n), dd = std::uint64_t(d), gg = std::gcd(nn, dd);
    r.num = gg ? nn / gg : nn;
    r.den = gg ? dd / gg : dd;
    return r;
}

std::string Prob::str() const {
    if (exact) return std::to_string(num) + "/" + std::to_string(den);
    char buf[32];
    std::snprintf(buf, sizeof buf, "~%.6f", approx);
    return buf;
}

std::size_t Enumerator::choose(const std::vector<Option>& options, const char* what) {
    if (pos_ < trail_.size()) {
        Step& s = trail_[pos_++];
        s.count = options.size();
        if (s.index >= options.size()) s.index = options.size() - 1;  // defensive: paths are deterministic
        s.weight = options[s.index];
        return s.index;
    }
    trail_.push_back({0, options.size(), options[0], what});
    ++pos_;
    return 0;
}

bool Enumerator::next() {
    trail_.resize(pos_);
    while (!trail_.empty() && trail_.back().index + 1 >= trail_.back().count) trail_.pop_back();
    pos_ = 0;
    if (trail_.empty()) return false;
    ++trail_.back().index;
    return true;
}

Prob Enumerator::weight() const {
    Prob p;
    for (std::size_t i = 0; i < pos_ && i < trail_.size(); ++i)
        p = p.times(trail_[i].weight.num, trail_[i].weight.den);
    return p;
}

std::string Enumerator::describe() const {
    std::string s;
    for (std::size_t i = 0; i < pos_ && i < trail_.size(); ++i)
        s += (s.empty() ? "" : " ") + trail_[i].what + "#" + std::to_string(trail_[i].index);
    return s;
}

std::vector<std::pair<std::size_t, std::size_t>> Enumerator::path() const {
    std::vector<std::pair<std::size_t, std::size_t>> p;
    for (std::size_t i = 0; i < pos_ && i < trail_.size(); ++i) p.push_back({trail_[i].index, trail_[i].count});
    return p;
}

std::size_t Replayer::choose(const std::vector<Option>& options, const char*) {
    if (pos_ >= path_.size() || path_[pos_].second != options.size()) {
        diverged_ = true;
        ++pos_;
        return 0;
    }
    return path_[pos_++].first;
}

std::size_t Sampler::choose(const std::vector<Option>& options, const char*) {
    double total = 0;
    for (const auto& o : options) total += double(o.num) / double(o.den);
    double r = std::uniform_real_distribution<double>(0, total)(rng_);
    std::size_t pick = options.size() - 1;
    for (std::size_t i = 0; i < options.size(); ++i) {
        r -= double(options[i].num) / double(options[i].den);
        if (r <= 0) {
            pick = i;
            break;
        }
    }
    path_.push_back({pick, options.size()});
    return pick;
}

}  // namespace tagproof::spec

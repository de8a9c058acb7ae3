// kept_by_answers.cpp — see kept_by_answers.hpp.
#include "kept_by_answers.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "hash128.hpp"
#include "kept_fields.hpp"

namespace tagproof::kernel {

namespace fs = std::filesystem;

std::optional<KeptByAnswers::Entry> KeptByAnswers::read_head(const std::string& path, const std::string& key,
                                                             std::string* payload) const {
    std::ifstream in(path, std::ios::binary);
    std::string magic, k, asked;
    if (!in || !kept::get(in, magic) || magic != magic_ || !kept::get(in, k) || k != key || !kept::get(in, asked))
        return std::nullopt;
    if (payload) {  // the transcript was read when the directory was: only its bytes are skipped here
        std::string end;
        if (!kept::get(in, *payload) || !kept::get(in, end) || end != "end") return std::nullopt;
        return Entry{{}, path};
    }
    if (!CallTranscript::well_formed(asked)) return std::nullopt;
    return Entry{std::move(asked), path};
}

std::vector<std::shared_ptr<const KeptByAnswers::Entry>> KeptByAnswers::entries_of(const std::string& dir,
                                                                                  const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, fresh] = known_.try_emplace(key);
    if (fresh) {
        std::error_code ec;
        for (fs::directory_iterator d(dir, ec), end; !ec && d != end; d.increment(ec))
            if (d->path().extension() == extension_)
                if (auto e = read_head(d->path().string(), key, nullptr))
                    it->second.push_back(std::make_shared<const Entry>(std::move(*e)));
    }
    return it->second;
}

std::optional<std::string> KeptByAnswers::find(const std::string& dir, const std::string& key, const Variant& v) {
    for (const auto& e : entries_of(dir, key)) {
        if (!CallTranscript::same_answers(e->asked, v)) continue;
        std::string payload;
        if (read_head(e->path, key, &payload)) return payload;
    }
    return std::nullopt;
}

void KeptByAnswers::keep(const std::string& dir, const std::string& key, const CallTranscript& asked,
                         const std::string& payload) {
    const std::string bytes = asked.bytes();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return;
    const std::string path = dir + "/" + hash128_hex(hash128(bytes)) + extension_;
    std::ostringstream text;
    kept::put(text, magic_);
    kept::put(text, key);
    kept::put(text, bytes);
    kept::put(text, payload);
    kept::put(text, std::string("end"));
    if (!kept::write_whole(path, text.str())) return;
    // (a key this process has not read yet is read from its directory, this entry with it)
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = known_.find(key); it != known_.end()) it->second.push_back(std::make_shared<const Entry>(Entry{bytes, path}));
}

}  // namespace tagproof::kernel

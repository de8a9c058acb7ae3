// kept_by_answers.hpp — results kept across processes with the questions
// they asked of the variant (variant_calls.hpp), and found again for any
// variant that answers them all alike. One mechanism for both users: a
// scenario file's runs (scenario/corpus_file_cache.hpp) and a family
// exploration (explore/family_cache.hpp); each says what its key is and how
// its payload reads, this keeps the entries.
//
// A key's entries live in one directory, a file each, named by its
// transcript's hash: magic, key, transcript, payload, "end", written whole or
// not at all (kept_fields.hpp). A process reads a directory's transcripts
// once and keeps them in memory with the entries it adds; a payload is read
// from its file when its transcript answers. A torn or foreign entry is a
// miss, never an error.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "variant_calls.hpp"

namespace tagproof::kernel {

class KeptByAnswers {
public:
    // `magic` tells one user's entries from another's; `extension` names
    // their files (".runs", ".graph").
    KeptByAnswers(std::string magic, std::string extension)
        : magic_(std::move(magic)), extension_(std::move(extension)) {}

    // The payload kept in `dir` under `key` by a variant that answered every
    // question as `v` does.
    std::optional<std::string> find(const std::string& dir, const std::string& key, const Variant& v);
    // Keeps `payload` in `dir` under `key` with the transcript of what it asked.
    void keep(const std::string& dir, const std::string& key, const CallTranscript& asked, const std::string& payload);

private:
    struct Entry {
        std::string asked;  // its transcript's bytes (CallTranscript::same_answers reads them as they are)
        std::string path;
    };
    // An entry's transcript (payload null), or its payload (the transcript
    // left unparsed); nullopt for a torn or foreign file.
    std::optional<Entry> read_head(const std::string& path, const std::string& key, std::string* payload) const;
    std::vector<std::shared_ptr<const Entry>> entries_of(const std::string& dir, const std::string& key);

    const std::string magic_, extension_;
    std::mutex mu_;
    std::map<std::string, std::vector<std::shared_ptr<const Entry>>> known_;  // by key
};

}  // namespace tagproof::kernel

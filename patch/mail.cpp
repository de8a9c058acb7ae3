// mail.cpp — the series reader (mail.hpp). It does not need the mail to be
// well formed: it looks for subjects ("Subject: ..." or a "[PATCH ...]" line)
// and for diffs ("diff --git", or a "--- " line followed by "+++ "), and
// reads each hunk by its @@ counts, so a list archive's page, an mbox and
// git's own output read the same. A diff that breaks its own counts is an
// error at the line where it does.
#include <cstring>
#include "mail.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "error.hpp"

namespace tagproof::patch {

std::vector<int> Hunk::side(char drop) const {
    std::vector<int> v;
    for (int i = 0; i < int(lines.size()); ++i)
        if (lines[i].kind != drop) v.push_back(i);
    return v;
}

namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::string trim(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "a/mm/vmalloc.c" -> "mm/vmalloc.c"; "/dev/null" stays; a tab ends the name (diff -u dates).
std::string strip_path(std::string p) {
    if (auto t = p.find('\t'); t != std::string::npos) p = p.substr(0, t);
    p = trim(p);
    if (p.size() > 2 && (starts(p, "a/") || starts(p, "b/"))) p = p.substr(2);
    return p;
}

// Quoted-printable bodies (Content-Transfer-Encoding: quoted-printable): soft
// line breaks joined, =XX decoded.
std::string decode_qp(const std::string& in) {
    std::string out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '=' && i + 1 < in.size() && in[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (in[i] == '=' && i + 2 < in.size() && std::isxdigit((unsigned char)in[i + 1]) &&
            std::isxdigit((unsigned char)in[i + 2])) {
            out += char(std::stoi(in.substr(i + 1, 2), nullptr, 16));
            i += 2;
            continue;
        }
        out += in[i];
    }
    return out;
}

// "@@ -3939,7 +3939,7 @@ static void *__vmalloc_area_node(...)"
void parse_hunk_header(const std::string& l, const std::string& where, Hunk& h) {
    std::size_t i = 2;
    auto fail = [&](std::size_t col, const std::string& m) {
        throw InputError(where + ":" + std::to_string(col + 1), m + "; a hunk starts '@@ -START[,COUNT] +START[,COUNT] @@'");
    };
    auto number = [&](int& out) {
        std::size_t b = i;
        while (i < l.size() && std::isdigit((unsigned char)l[i])) ++i;
        if (b == i || i - b > 9) fail(b, "expected a line number");
        out = std::stoi(l.substr(b, i - b));
    };
    auto range = [&](char sign, int& start, int& count) {
        while (i < l.size() && l[i] == ' ') ++i;
        if (i >= l.size() || l[i] != sign) fail(i, std::string("expected '") + sign + "'");
        ++i;
        number(start);
        count = 1;
        if (i < l.size() && l[i] == ',') {
            ++i;
            number(count);
        }
    };
    range('-', h.old_start, h.old_count);
    range('+', h.new_start, h.new_count);
    while (i < l.size() && l[i] == ' ') ++i;
    if (l.compare(i, 2, "@@") != 0) fail(i, "expected '@@'");
    h.function = trim(l.substr(i + 2));
}

}  // namespace

[[noreturn]] void no_patch(const std::string& where) {
    throw InputError(where, "no patch in it: expected `git format-patch` output, an mbox or `git diff` output "
                            "(a 'diff --git a/... b/...' line, or '--- a/...' then '+++ b/...', then '@@' hunks)");
}

void read_patches(const std::string& raw_text, const std::string& path, Series& s, bool require_diff) {
    std::string text = raw_text;
    if (text.find('\0') != std::string::npos) throw InputError(path, "a NUL byte: a patch is text");
    // CRLF mail, and quoted-printable bodies
    std::string t;
    for (char c : text)
        if (c != '\r') t += c;
    text = t;
    std::string lower;
    for (char c : text.substr(0, 1 << 16)) lower += char(std::tolower((unsigned char)c));
    if (lower.find("content-transfer-encoding: quoted-printable") != std::string::npos) text = decode_qp(text);

    std::vector<std::string> L;
    {
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) L.push_back(l);
    }
    s.inputs.push_back(path);
    auto at = [&](std::size_t i) { return path + ":" + std::to_string(i + 1); };
    Patch cur;         // the patch being read
    bool in_diff = false;
    std::string pending_subject;
    auto flush = [&] {
        if (!cur.files.empty()) s.patches.push_back(cur);
        cur = Patch{};
        in_diff = false;
    };
    auto subject_of = [](const std::string& l) -> std::string {
        if (starts(l, "Subject:")) return trim(l.substr(8));
        const std::string tl = trim(l);
        if (starts(tl, "[PATCH") || starts(tl, "[RFC PATCH") || starts(tl, "[PATCH]")) return tl;
        return "";
    };
    auto is_cover = [](const std::string& subj) {
        // "[PATCH v2 0/3] ..."
        std::size_t b = subj.find('['), e = subj.find(']');
        if (b == std::string::npos || e == std::string::npos || e < b) return false;
        std::string tag = subj.substr(b, e - b);
        return tag.find(" 0/") != std::string::npos || tag.find(" 00/") != std::string::npos;
    };
    std::size_t i = 0;
    while (i < L.size()) {
        const std::string& l = L[i];
        // a new message
        if (std::string subj = subject_of(l); !subj.empty()) {
            // a wrapped Subject: header continues on indented lines
            if (starts(l, "Subject:"))
                while (i + 1 < L.size() && !L[i + 1].empty() && (L[i + 1][0] == ' ' || L[i + 1][0] == '\t'))
                    subj += " " + trim(L[++i]);
            if (is_cover(subj)) {
                flush();
                if (s.cover_subject.empty()) s.cover_subject = subj;
                pending_subject.clear();
            } else if (subj != cur.subject) {
                flush();
                cur.subject = subj;
            }
            s.all_text += subj + "\n";
            ++i;
            continue;
        }
        // a file's diff
        const bool git = starts(l, "diff --git ");
        const bool plain = starts(l, "--- ") && i + 1 < L.size() && starts(L[i + 1], "+++ ");
        if (git || plain) {
            FileDiff fd;
            fd.at = int(i + 1);
            if (git) {
                // diff --git a/X b/Y: take b/Y; the ---/+++ lines, when there, say it again
                std::string rest = l.substr(11);
                std::size_t sp = rest.rfind(" b/");
                fd.path = strip_path(sp == std::string::npos ? rest : rest.substr(sp + 1));
                ++i;
                while (i < L.size() && !starts(L[i], "@@") && !starts(L[i], "diff --git ") && !starts(L[i], "--- ")) {
                    if (starts(L[i], "GIT binary patch") || (starts(L[i], "Binary files ") && L[i].find(" differ") != std::string::npos))
                        fd.binary = true;
                    if (starts(L[i], "index ")) {
                        // index OLD..NEW[ MODE]: hexadecimal blob names, else ignored
                        const std::string v = L[i].substr(6, L[i].find(' ', 6) == std::string::npos ? std::string::npos
                                                                                                    : L[i].find(' ', 6) - 6);
                        const std::size_t dots = v.find("..");
                        auto hex = [](const std::string& x) {
                            return x.size() >= 7 && x.find_first_not_of("0123456789abcdef") == std::string::npos;
                        };
                        if (dots != std::string::npos && hex(v.substr(0, dots)) && hex(v.substr(dots + 2))) {
                            fd.old_blob = v.substr(0, dots);
                            fd.new_blob = v.substr(dots + 2);
                        }
                    }
                    ++i;
                }
            }
            if (i < L.size() && starts(L[i], "--- ")) {
                std::string oldp = strip_path(L[i].substr(4));
                if (i + 1 >= L.size() || !starts(L[i + 1], "+++ "))
                    throw InputError(at(i + 1) + ":1", "a '--- ' line not followed by '+++ '");
                std::string newp = strip_path(L[i + 1].substr(4));
                fd.path = newp == "/dev/null" ? oldp : newp;
                i += 2;
            }
            if (fd.path.empty()) throw InputError(at(fd.at - 1) + ":1", "a diff without a file name");
            // hunks
            while (i < L.size() && starts(L[i], "@@")) {
                Hunk h;
                h.at = int(i + 1);
                parse_hunk_header(L[i], at(i), h);
                ++i;
                int old_left = h.old_count, new_left = h.new_count;
                while (old_left > 0 || new_left > 0) {
                    if (i >= L.size())
                        throw InputError(at(i - 1) + ":1", "the file ends inside the hunk of " + at(h.at - 1) + " (" +
                                                               std::to_string(old_left) + " old and " +
                                                               std::to_string(new_left) + " new lines still to come)");
                    const std::string& x = L[i];
                    // an archive may strip an empty context line's space
                    char k = x.empty() ? ' ' : x[0];
                    if (k == '\\') {  // "\ No newline at end of file"
                        ++i;
                        continue;
                    }
                    if (k != ' ' && k != '+' && k != '-')
                        throw InputError(at(i) + ":1", std::string("a hunk line starting '") + (std::isprint((unsigned char)k) ? std::string(1, k) : "\\x" + std::to_string(int((unsigned char)k))) +
                                                           "' (hunk at " + at(h.at - 1) + " expects " + std::to_string(old_left) +
                                                           " more old and " + std::to_string(new_left) +
                                                           " more new lines, each starting ' ', '+' or '-')");
                    if ((k == ' ' || k == '-') && old_left == 0)
                        throw InputError(at(i) + ":1", "more old lines than the hunk at " + at(h.at - 1) + " says");
                    if ((k == ' ' || k == '+') && new_left == 0)
                        throw InputError(at(i) + ":1", "more new lines than the hunk at " + at(h.at - 1) + " says");
                    if (k != '+') --old_left;
                    if (k != '-') --new_left;
                    h.lines.push_back({k, x.empty() ? "" : x.substr(1), int(i + 1)});
                    ++i;
                }
                while (i < L.size() && starts(L[i], "\\")) ++i;
                // what follows a hunk: the next hunk or file, the mail's signature, a blank
                // line, or the end; a line that reads as more of the hunk means the counts are wrong
                if (i < L.size() && !L[i].empty() && !starts(L[i], "@@") && !starts(L[i], "diff ") &&
                    !(starts(L[i], "--- ") && i + 1 < L.size() && starts(L[i + 1], "+++ ")) && L[i] != "--" &&
                    !starts(L[i], "-- ") && (L[i][0] == ' ' || L[i][0] == '+' || L[i][0] == '-'))
                    throw InputError(at(i) + ":1", "this line reads as more of the hunk at " + at(h.at - 1) +
                                                       ", which its @@ header says has ended (" + std::to_string(h.old_count) +
                                                       " old, " + std::to_string(h.new_count) + " new lines): are the counts right?");
                fd.hunks.push_back(std::move(h));
            }
            if (fd.hunks.empty() && !fd.binary && git) {
                // a mode change or rename: nothing to map, but listed
            }
            cur.files.push_back(std::move(fd));
            in_diff = true;
            continue;
        }
        if (starts(l, "@@ -"))
            throw InputError(at(i) + ":1", "a hunk with no file before it (a 'diff --git a/... b/...' line, or "
                                           "'--- a/...' then '+++ b/...')");
        if (in_diff && (starts(l, "-- ") || l == "--")) {  // the signature after the diff
            in_diff = false;
        }
        if (!in_diff) {
            cur.text += l + "\n";
            if (cur.subject.empty() && s.patches.empty() && s.cover_subject.empty() && cur.files.empty())
                s.cover_text += l + "\n";
            else if (!s.cover_subject.empty() && cur.subject.empty())
                s.cover_text += l + "\n";
            s.all_text += l + "\n";
        }
        ++i;
    }
    flush();
    if (require_diff && s.patches.empty()) no_patch(path);
}

namespace {

// A patch's text, read in bounded pieces: a NUL byte ends it as binary data
// at once (/dev/zero is refused, not read until killed), and so does a size
// no mailed series comes near.
std::string read_bounded(std::istream& in, const std::string& path) {
    constexpr std::size_t kPiece = 64 * 1024, kMax = std::size_t(64) << 20;
    std::string text;
    std::string piece(kPiece, '\0');
    while (in) {
        in.read(piece.data(), std::streamsize(kPiece));
        const std::size_t n = std::size_t(in.gcount());
        if (n == 0) break;
        if (const void* nul = std::memchr(piece.data(), 0, n))
            throw InputError(path, "byte " + std::to_string(text.size() + std::size_t(static_cast<const char*>(nul) - piece.data())) +
                                       " is NUL: binary data, not a patch");
        text.append(piece.data(), n);
        if (text.size() > kMax) throw InputError(path, "larger than 64 MiB: not a patch series");
    }
    return text;
}

}  // namespace

Series read_series(const std::vector<std::string>& paths) {
    Series s;
    for (const auto& p : paths) {
        std::string text;
        if (p == "-") {
            text = read_bounded(std::cin, "standard input");
        } else {
            std::ifstream in(p, std::ios::binary);
            if (!in) throw InputError(p, "cannot read the patch");
            text = read_bounded(in, p);
        }
        read_patches(text, p, s, false);  // a cover letter alone has none
    }
    if (s.patches.empty()) no_patch(paths.size() == 1 ? paths[0] : "the " + std::to_string(paths.size()) + " files given");
    return s;
}

}  // namespace tagproof::patch

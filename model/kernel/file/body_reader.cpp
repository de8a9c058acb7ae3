// body_reader.cpp — the statement reader of rule bodies (body_reader.hpp);
// expressions are ExprParser's (expr_reader.hpp), with the body's locals and
// the primitive table added to the names it binds.
#include "body_reader.hpp"

#include <algorithm>
#include <memory>

#include "expr_reader.hpp"
#include "primitives.hpp"

namespace tagproof::kernel {

const std::vector<BodyRule>& body_only_rules() {
    static const std::vector<BodyRule> r = {
        {"post_alloc_hook", {"page", "order", "gfp_flags"}, 1,
         "mm/page_alloc.c post_alloc_hook: the KASAN and init part of preparing an allocated block", 3, true, false},
        {"should_skip_kasan_poison", {"page", "fpi_flags"}, -1,
         "mm/page_alloc.c should_skip_kasan_poison: whether free_pages_prepare() poisons the block "
         "(fpi_flags until v6.3)", 1, false, true},
    };
    return r;
}

namespace {

using detail::BodyNames;
using detail::ExprParser;

bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

// `text` has `word` as a whole identifier
bool names_word(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool before = at > 0 && ident_char(text[at - 1]);
        const bool after = at + word.size() < text.size() && ident_char(text[at + word.size()]);
        if (!before && !after) return true;
    }
    return false;
}

// The types a local or a parameter may have: the words before its name.
bool type_word(const std::string& w) {
    static const std::vector<std::string> t = {"bool",  "int",   "unsigned", "long",   "short", "char",  "gfp_t",
                                               "fpi_t", "u8",    "u16",      "u32",    "u64",   "size_t", "const",
                                               "signed", "struct", "void"};
    return std::find(t.begin(), t.end(), w) != t.end();
}

struct BodyParser {
    const BodyText& t;
    const BodyContext& c;
    RuleBody b;
    BodyNames names;
    std::vector<std::string> param_store;
    std::vector<const char*> params;
    std::unique_ptr<ExprParser> p;

    BodyParser(const BodyText& t, const BodyContext& c) : t(t), c(c) {}

    std::size_t& i() { return p->i; }
    const std::string& s() const { return t.text; }
    [[noreturn]] void fail(std::size_t at, const std::string& m) { p->fail(at, m); }
    void ws() { p->skip_ws(); }
    bool eat(const char* x) { return p->eat(x); }
    void expect(const char* x, const std::string& what) {
        if (!eat(x)) fail(i(), std::string("expected '") + x + "' " + what);
    }
    std::string peek_ident() {
        ws();
        std::size_t e = i();
        while (e < s().size() && ident_char(s()[e])) ++e;
        if (e == i() || std::isdigit((unsigned char)s()[i()])) return "";
        return s().substr(i(), e - i());
    }
    std::string ident() {
        std::string w = peek_ident();
        i() += w.size();
        return w;
    }
    // Past a balanced (...) starting at '(' (strings have no parentheses in the bodies read).
    void skip_parens() {
        ws();
        std::size_t at = i();
        int depth = 0;
        do {
            if (i() >= s().size()) fail(at, "the '(' here is never closed");
            if (s()[i()] == '(') ++depth;
            else if (s()[i()] == ')') --depth;
            ++i();
        } while (depth > 0);
    }
    RuleExpr expr() {
        RuleExpr x = p->cond();
        resolve_codes(x);
        return x;
    }

    void add_local(const std::string& n, std::size_t at) {
        if (std::find(names.locals.begin(), names.locals.end(), n) != names.locals.end() ||
            std::find(param_store.begin(), param_store.end(), n) != param_store.end())
            return;  // a second declaration (another branch's) is the same local to the model
        if (n.empty()) fail(at, "expected a local's name");
        names.locals.push_back(n);
        b.locals.push_back(n);
    }

    // TYPE NAME [= EXPR] {, NAME [= EXPR]} ;
    void decl(std::vector<BodyStmt>& out) {
        std::string type;
        for (;;) {
            std::size_t save = i();
            std::string w = ident();
            if (type == "struct" || type == "const struct") {  // the struct's tag
                type += " " + w;
                continue;
            }
            if (!type_word(w)) {
                i() = save;
                break;
            }
            type += (type.empty() ? "" : " ") + w;
        }
        for (;;) {
            ws();
            std::size_t at = i();
            while (eat("*")) type += "*";
            std::string n = ident();
            if (n.empty()) fail(at, "expected a local's name after its type");
            add_local(n, at);
            BodyStmt st;
            st.kind = BodyStmt::decl;
            st.name = n;
            st.op = type == "bool" ? "bool" : "word";
            st.line = p->line_of(at);
            if (eat("=")) {
                st.has_expr = true;
                st.expr = expr();
            }
            out.push_back(std::move(st));
            if (eat(",")) continue;
            expect(";", "after the declaration");
            return;
        }
    }

    bool is_var(const std::string& n) const {
        return std::find(names.locals.begin(), names.locals.end(), n) != names.locals.end() ||
               std::find(param_store.begin(), param_store.end(), n) != param_store.end();
    }

    void stmt(std::vector<BodyStmt>& out) {
        ws();
        std::size_t at = i();
        if (at >= s().size()) fail(at, "the body ends before its closing '}'");
        if (s()[at] == '#')
            fail(at, "a preprocessor line inside a rule body: write the branch the configuration takes");
        if (eat(";")) return;
        if (eat("{")) {
            BodyStmt st;
            st.kind = BodyStmt::block;
            st.line = p->line_of(at);
            while (!eat("}")) stmt(st.then_s);
            out.push_back(std::move(st));
            return;
        }
        const std::string w = peek_ident();
        if (w.empty()) fail(at, "expected a statement");
        if (w == "if") {
            ident();
            expect("(", "after if");
            BodyStmt st;
            st.kind = BodyStmt::if_else;
            st.line = p->line_of(at);
            st.has_expr = true;
            st.expr = expr();
            expect(")", "closing the if's condition");
            stmt(st.then_s);
            if (peek_ident() == "else") {
                ident();
                stmt(st.else_s);
            }
            out.push_back(std::move(st));
            return;
        }
        if (w == "return") {
            ident();
            BodyStmt st;
            st.kind = BodyStmt::ret;
            st.line = p->line_of(at);
            if (!eat(";")) {
                st.has_expr = true;
                st.expr = expr();
                expect(";", "after the returned value");
            }
            out.push_back(std::move(st));
            return;
        }
        if (w == "for") {
            ident();
            ws();
            std::size_t h = i();
            skip_parens();
            const std::string header = s().substr(h, i() - h);
            // only the loop over a block's pages: for (i = 0; i != 1 << order; ++i)
            if (c.order_param < 0 || !names_word(header, param_store[c.order_param]))
                fail(at, "a for loop a body reads only over a block's pages (its condition names the order" +
                             (c.order_param < 0 ? std::string(", and this rule has none)")
                                                : std::string(", ") + param_store[c.order_param] + ")"));
            BodyStmt st;
            st.kind = BodyStmt::page_loop;
            st.line = p->line_of(at);
            stmt(st.then_s);
            out.push_back(std::move(st));
            return;
        }
        static const std::vector<std::string> refused = {"while", "do", "switch", "goto", "break", "continue", "case"};
        if (std::find(refused.begin(), refused.end(), w) != refused.end())
            fail(at, "'" + w + "' is outside the C a rule body reads: locals, = |= &=, if/else, return, calls, "
                     "and a for loop over the block's pages");
        if (type_word(w)) return decl(out);
        ident();
        if (is_var(w)) {
            BodyStmt st;
            st.kind = BodyStmt::assign;
            st.name = w;
            st.line = p->line_of(at);
            if (eat("|=")) st.op = "|=";
            else if (eat("&=")) st.op = "&=";
            else if (eat("=")) st.op = "=";
            else fail(i(), "expected '=', '|=' or '&=' after " + w);
            st.has_expr = true;
            st.expr = expr();
            expect(";", "after the assignment");
            out.push_back(std::move(st));
            return;
        }
        ws();
        if (i() < s().size() && s()[i()] == '(') {
            if (is_effect_primitive(w) && !c.effects)
                fail(at, w + " has an effect on tags or data; only post_alloc_hook's body may call a primitive");
            if (is_page_read(w) && !c.reads_page)
                fail(at, w + "() reads the freed page; only should_skip_kasan_poison's body may read it");
            bool known = is_primitive(w);
            for (const auto& r : overridable_rules()) known |= w == r.name;
            for (const char* q : rule_predicates()) known |= w == q;
            if (known) {
                i() = at;
                BodyStmt st;
                st.kind = BodyStmt::call;
                st.line = p->line_of(at);
                st.has_expr = true;
                st.expr = expr();
                expect(";", "after the call");
                out.push_back(std::move(st));
                return;
            }
            // called for no value: assumed to leave tags and data alone, and said so
            skip_parens();
            expect(";", "after the call of " + w);
            if (std::find(b.unread_calls.begin(), b.unread_calls.end(), w) == b.unread_calls.end())
                b.unread_calls.push_back(w);
            return;
        }
        fail(at, "'" + w + "' is neither a local, a parameter nor a function called here");
    }

    RuleBody read(const std::string& rule) {
        p = std::make_unique<ExprParser>(ExprParser{t.text, 0, t.path, t.first_line, 0, c.hw, c.other, params,
                                                    c.base_name, rule, false});
        p->body = &names;
        p->line_starts = &t.line_starts;
        p->first_line = t.first_line;
        names.is_primitive = c.effects ? &is_effect_primitive : c.reads_page ? &is_page_read : nullptr;
        b.rule = rule;
        b.where = t.path + ":" + std::to_string(t.first_line);
        std::size_t at = (ws(), i());
        if (ident() != rule) fail(at, "expected " + rule);
        expect("(", "and the parameters after " + rule);
        // each parameter: its type and its name; the name is what the body uses
        if (!eat(")")) {
            for (;;) {
                ws();
                std::size_t pa = i();
                std::string last;
                while (i() < s().size() && s()[i()] != ',' && s()[i()] != ')') {
                    std::string w = ident();
                    if (!w.empty()) last = w;
                    else if (s()[i()] == '*' || std::isspace((unsigned char)s()[i()])) ++i();
                    else fail(i(), "unexpected '" + std::string(1, s()[i()]) + "' in the parameters");
                }
                if (last.empty()) fail(pa, "expected a parameter's name");
                param_store.push_back(last);
                if (eat(",")) continue;
                expect(")", "closing the parameters");
                break;
            }
        }
        const std::size_t least = c.min_params ? c.min_params : c.param_count;
        if (param_store.size() > c.param_count || param_store.size() < least)
            fail(at, rule + " takes " + (least == c.param_count ? "" : std::to_string(least) + " to ") +
                         std::to_string(c.param_count) + " parameter" + (c.param_count == 1 ? "" : "s") + ", not " +
                         std::to_string(param_store.size()));
        for (const auto& q : param_store) params.push_back(q.c_str());
        b.params = param_store;
        expect("{", "opening the body of " + rule);
        while (!eat("}")) stmt(b.stmts);
        ws();
        if (i() != s().size()) fail(i(), "text after the body's closing '}'");
        return b;
    }
};

}  // namespace

RuleBody read_rule_body(const BodyText& t, const std::string& rule, const BodyContext& c) {
    BodyParser bp(t, c);
    return bp.read(rule);
}

}  // namespace tagproof::kernel

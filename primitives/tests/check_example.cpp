// Checks one documented example: the code lines that a public header shows for it are in the
// example's source (so the documented code is the code that compiles), and the example prints
// exactly the output the header documents.
//
//   check_example HEADER SOURCE EXAMPLE_BINARY
//
// In the header, an example is a comment block of this shape ("//" or " *" comments):
//     Example (examples/NAME, ...):
//         <code lines, indented 4 spaces past the comment's own space>
//     ... prints ...
//         <expected output lines, indented the same>
// Exit: 0 pass, 1 fail, 77 the example skipped (no CUDA device), 2 usage or I/O error.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int SKIP = 77;
const std::string INDENT = "    ";  // code and output lines: 4 spaces past the comment's space

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}
std::string trim(const std::string &s) {
  const size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : rtrim(s.substr(b));
}

bool read_lines(const std::string &path, std::vector<std::string> &lines) {
  std::ifstream f(path);
  if (!f) return false;
  for (std::string line; std::getline(f, line);) lines.push_back(rtrim(line));
  return true;
}

// The text of a comment line after "//" or "*" and one space; false if it is not a comment line.
bool comment_text(const std::string &line, std::string &text) {
  const std::string t = trim(line);
  size_t skip = 0;
  if (t.rfind("//", 0) == 0) skip = 2;
  else if (t.rfind("*", 0) == 0 && t.rfind("*/", 0) != 0) skip = 1;
  else return false;
  text = t.substr(skip);
  if (!text.empty() && text[0] == ' ') text.erase(0, 1);
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: check_example HEADER SOURCE EXAMPLE_BINARY\n");
    return 2;
  }
  const std::string header = argv[1], source = argv[2], binary = argv[3];
  const std::string name = source.substr(source.find_last_of('/') + 1);
  std::vector<std::string> hdr, src;
  if (!read_lines(header, hdr) || !read_lines(source, src)) {
    std::fprintf(stderr, "check_example: cannot read %s or %s\n", header.c_str(), source.c_str());
    return 2;
  }

  // 1. find the example's block in the header: its code lines, then its output lines
  const std::string anchor = "Example (examples/" + name;
  size_t i = 0;
  while (i < hdr.size() && hdr[i].find(anchor) == std::string::npos) ++i;
  if (i == hdr.size()) {
    std::fprintf(stderr, "%s: no \"%s\" block\n", header.c_str(), anchor.c_str());
    return 1;
  }
  std::vector<std::string> code, expected;
  bool in_output = false;
  for (++i; i < hdr.size(); ++i) {
    std::string text;
    if (!comment_text(hdr[i], text)) break;
    if (text.rfind(INDENT, 0) == 0) {
      (in_output ? expected : code).push_back(text.substr(INDENT.size()));
    } else if (!in_output && text.find("prints") != std::string::npos) {
      in_output = true;
    } else if (in_output && !expected.empty()) {
      break;  // the first prose line after the output ends the block
    }
  }
  if (code.empty() || expected.empty()) {
    std::fprintf(stderr, "%s:%zu: the %s block needs code lines and, after \"prints\", output lines\n",
                 header.c_str(), i, name.c_str());
    return 1;
  }

  // 2. every documented code line is a line of the source
  int failures = 0;
  for (const std::string &c : code) {
    const std::string want = trim(c);
    if (want.empty()) continue;
    bool found = false;
    for (const std::string &s : src) found = found || trim(s) == want;
    if (!found) {
      std::fprintf(stderr, "%s: documented line not in %s: %s\n", header.c_str(), source.c_str(), want.c_str());
      ++failures;
    }
  }

  if (failures) return 1;  // checked with or without a GPU

  // 3. run the example and compare what it prints
  FILE *p = popen(("'" + binary + "'").c_str(), "r");
  if (!p) {
    std::fprintf(stderr, "check_example: cannot run %s\n", binary.c_str());
    return 2;
  }
  std::string out;
  char buf[4096];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  const int status = pclose(p);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (rc == SKIP) {
    std::printf("%s", out.c_str());
    return SKIP;
  }
  std::vector<std::string> printed;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) printed.push_back(rtrim(line));
  if (rc != 0) {
    std::fprintf(stderr, "%s exited with %d\n", binary.c_str(), rc);
    ++failures;
  }
  const size_t count = printed.size() > expected.size() ? printed.size() : expected.size();
  for (size_t k = 0; k < count; ++k) {
    const std::string *got = k < printed.size() ? &printed[k] : nullptr;
    const std::string *want = k < expected.size() ? &expected[k] : nullptr;
    if (!got || !want || *got != *want) {
      std::fprintf(stderr, "%s: output line %zu: printed \"%s\", documented \"%s\"\n", name.c_str(), k + 1,
                   got ? got->c_str() : "(nothing)", want ? want->c_str() : "(nothing)");
      ++failures;
    }
  }
  std::printf("%s: %s (%zu code lines, %zu output lines)\n", name.c_str(), failures ? "FAILED" : "as documented",
              code.size(), expected.size());
  return failures ? 1 : 0;
}

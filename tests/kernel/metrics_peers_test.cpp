// The metrics endpoint and -f openmetrics|prometheus files read by the real programs that read
// them in production: a Prometheus server scraping every second (queried through its HTTP API
// with promtool), promtool's own exposition check, and node_exporter's textfile collector. The
// workload (samples/sized_calls.c) reports how many calls it made; the histogram's expected
// buckets are counted from the sizes it was given.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <fstream>

#include "tests/kernel/metrics_support.h"
#include "tests/skip.h"

using namespace rawprobe::metrics_test;

namespace {

bool have(const char* tool) { return std::system((std::string("command -v ") + tool + " >/dev/null").c_str()) == 0; }

// One series of a promtool instant query: its labels text and value.
struct Series {
  std::string labels;
  double value = 0;
};

// promtool query instant prints NAME{a="x", b="y"} => VALUE @[TIME] per series.
std::vector<Series> query(int prometheus_port, const std::string& expr) {
  RunResult r = run({"promtool", "query", "instant", "http://127.0.0.1:" + std::to_string(prometheus_port), expr}, 20);
  std::vector<Series> series;
  for (const std::string& line : lines_starting(r.out, "")) {
    size_t open = line.find('{'), close = line.find("} => "), at = line.find(" @[");
    if (open == std::string::npos || close == std::string::npos || at == std::string::npos) continue;
    series.push_back({line.substr(open, close - open + 1), std::atof(line.substr(close + 5, at - close - 5).c_str())});
  }
  return series;
}

// A Prometheus server scraping 127.0.0.1:target every second, its data in a temporary directory.
class Prometheus {
 public:
  explicit Prometheus(int target) : port_(free_port()) {
    std::ofstream(dir_.path + "/prometheus.yml") << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                                                    "scrape_configs:\n  - job_name: rawprobe\n    static_configs:\n"
                                                    "      - targets: ['127.0.0.1:" << target << "']\n";
    process_ = std::make_unique<Process>(std::vector<std::string>{
        "prometheus", "--config.file=" + dir_.path + "/prometheus.yml", "--storage.tsdb.path=" + dir_.path + "/data",
        "--web.listen-address=127.0.0.1:" + std::to_string(port_)});
  }
  ~Prometheus() {
    process_->signal(SIGTERM);
    process_->finish(20);
  }
  int port() const { return port_; }

 private:
  TempDir dir_;
  int port_;
  std::unique_ptr<Process> process_;
};

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("a real Prometheus scrapes --metrics: the counter equals the calls, the buckets the sizes") {
  if (!have("prometheus") || !have("promtool")) {
    RAWPROBE_SKIP("needs Debian's prometheus package (tests/install-packages test)");
    return;
  }
  // A label value with every character the format escapes, as the script writes it.
  const std::string tag = "a\"b\\c\nd", tag_literal = "\"a\\\"b\\\\c\\nd\"";
  Process rawprobe(joined({"--metrics", "127.0.0.1:0", "-c", sized_calls() + " 120" + sizes_args(), "-e",
                           sized_script() + " BEGIN { @tagged[" + tag_literal + "] = count(); }"}));
  int port = served_port(rawprobe);
  REQUIRE_MESSAGE(port > 0, rawprobe.so_far().out);
  REQUIRE(rawprobe.wait_for_output("sized_calls: calls=", 30));
  long calls = reported_calls(rawprobe.so_far().out);
  REQUIRE(calls == long(kSizes.size()));

  Prometheus prometheus(port);
  std::vector<Series> counter;
  bool scraped = wait_until([&] {
    counter = query(prometheus.port(), "rawprobe_calls_total");
    return counter.size() == 1 && counter[0].value == double(calls);
  }, 60);
  REQUIRE_MESSAGE(scraped, "Prometheus never saw rawprobe_calls_total == " << calls);
  CHECK(label_value(counter[0].labels, "comm") == "sized_calls");
  CHECK(label_value(counter[0].labels, "job") == "rawprobe");

  std::vector<Series> buckets = query(prometheus.port(), "rawprobe_sizes_bucket");
  REQUIRE(buckets.size() > 2);
  bool saw_inf = false;
  for (const Series& b : buckets) {
    std::string le = label_value(b.labels, "le");
    INFO("le=" << le);
    if (le == "+Inf") {
      saw_inf = true;
      CHECK(b.value == double(calls));
    } else {
      CHECK(b.value == double(sizes_at_most(std::atof(le.c_str()))));
    }
  }
  CHECK(saw_inf);
  std::vector<Series> count = query(prometheus.port(), "rawprobe_sizes_count");
  REQUIRE(count.size() == 1);
  CHECK(count[0].value == double(calls));
  std::vector<Series> sum = query(prometheus.port(), "rawprobe_sizes_sum");
  REQUIRE(sum.size() == 1);
  CHECK(sum[0].value == double(sizes_total()));
  // Prometheus's JSON holds the label value unescaped: it must be the script's string.
  RunResult tagged = run({"sh", "-c",
                          "promtool query instant -o json \"$0\" rawprobe_tagged_total | python3 -c '"
                          "import json, sys; r = json.load(sys.stdin); r = r[\"data\"][\"result\"] if isinstance(r, dict) else r; "
                          "sys.stdout.write(r[0][\"metric\"][\"key0\"])'",
                          "http://127.0.0.1:" + std::to_string(prometheus.port())});
  CHECK_MESSAGE(tagged.out == tag, tagged.err);
  std::vector<Series> up = query(prometheus.port(), "up{job=\"rawprobe\"}");
  REQUIRE(up.size() == 1);
  CHECK(up[0].value == 1);

  // promtool reads the Prometheus text format (what a scrape without an Accept header gets).
  std::string response = scrape(port);
  REQUIRE(status_of(response) == 200);
  TempDir dir;
  std::ofstream(dir.path + "/scrape.txt") << body_of(response);
  RunResult check = run({"sh", "-c", "promtool check metrics < \"$0\"", dir.path + "/scrape.txt"});
  CHECK_MESSAGE(check.status == 0, check.out << check.err << body_of(response));

  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(30).status == 0);
}

// node_exporter's textfile collector reads *.prom files in the Prometheus text format; an
// OpenMetrics counter's family line (without _total) does not name its sample there, so it
// arrives untyped but with its value, and -f prometheus keeps the type.
TEST_CASE("node_exporter serves the series of a file -f openmetrics and -f prometheus -o write") {
  if (!have("prometheus-node-exporter")) {
    RAWPROBE_SKIP("needs Debian's prometheus-node-exporter package (tests/install-packages test)");
    return;
  }
  for (std::string format : {"openmetrics", "prometheus"}) {
    CAPTURE(format);
    TempDir dir;
    std::string file = dir.path + "/rawprobe.prom";
    RunResult r = run_rawprobe({"-f", format, "-o", file, "-c", sized_calls() + " 0" + sizes_args(), "-e", sized_script()});
    REQUIRE_MESSAGE(r.status == 0, r.err);
    long calls = reported_calls(r.err);
    REQUIRE(calls == long(kSizes.size()));
    struct stat st;
    CHECK(stat((file + ".tmp").c_str(), &st) != 0);  // renamed over the file, not left beside it

    int port = free_port();
    Process exporter({"prometheus-node-exporter", "--web.listen-address=127.0.0.1:" + std::to_string(port),
                      "--collector.disable-defaults", "--collector.textfile",
                      "--collector.textfile.directory=" + dir.path});
    std::string metrics;
    REQUIRE(wait_until([&] {
      // HTTP/1.0, so Go's server sends the body whole rather than in chunks, which body_of
      // would read with the chunk sizes in between.
      metrics = body_of(http_exchange(port, "GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n"));
      return !metrics.empty();
    }, 30));
    CHECK(samples_named(metrics, "node_textfile_scrape_error")[""] == "0");
    CHECK(samples_named(metrics, "rawprobe_calls_total")["{comm=\"sized_calls\"}"] == std::to_string(calls));
    std::map<std::string, std::string> buckets = samples_named(metrics, "rawprobe_sizes_bucket");
    REQUIRE(buckets.size() > 2);
    for (const auto& [labels, value] : buckets) {
      std::string le = label_value(labels, "le");
      INFO("le=" << le);
      long expected = le == "+Inf" ? calls : sizes_at_most(std::atof(le.c_str()));
      CHECK(value == std::to_string(expected));
    }
    CHECK(samples_named(metrics, "rawprobe_sizes_sum")[""] == std::to_string(sizes_total()));
    std::string type = format == "prometheus" ? "counter" : "untyped";
    CHECK(metrics.find("# TYPE rawprobe_calls_total " + type + "\n") != std::string::npos);
    exporter.signal(SIGTERM);
    exporter.finish(10);
  }
}

// Each exposition replaces the file whole: a reader polling it while prints come every 20 ms
// never sees it empty or cut short (a writer that truncated and rewrote the file in place
// would be caught between the two).
TEST_CASE("-f openmetrics -o replaces the file whole at every interval print") {
  TempDir dir;
  std::string file = dir.path + "/rawprobe.prom";
  Process rawprobe({rawprobe_path(), "-f", "openmetrics", "-o", file, "-e",
                    "interval:ms:20 { @ticks = count(); print(@ticks); } interval:ms:3000 { exit(); }"});
  int reads = 0, whole = 0;
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(2500);
  std::string last;
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream in(file);
    if (!in) continue;
    usleep(200);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    reads++;
    bool complete = text.rfind("# HELP rawprobe_ticks ", 0) == 0 && text.size() > 6 &&
                    text.compare(text.size() - 6, 6, "# EOF\n") == 0;
    whole += complete;
    if (!complete) last = text;
  }
  CHECK(rawprobe.finish(20).status == 0);
  CHECK(reads > 100);
  CHECK_MESSAGE(whole == reads, "a read saw: [" << last << "]");
  std::string final_text = read_file(file);
  std::map<std::string, std::string> ticks = samples_named(final_text, "rawprobe_ticks_total");
  REQUIRE(ticks.count(""));
  CHECK(std::atol(ticks[""].c_str()) > 50);
}

TEST_SUITE_END();

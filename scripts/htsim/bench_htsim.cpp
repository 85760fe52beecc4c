// The speed benchmarks of BENCHMARKS.md (B1, S, MP) written against htsim's public API, so
// that htsim and pathpool run the same topologies side by side (scripts/bench_vs_htsim.py).
// Built by scripts/htsim/build.sh against an htsim checkout the user points at; nothing of
// htsim is part of this repository.
//
//   bench_htsim <b1|s|mp|mpd|fence> <flows> <seconds>
//
// Same topology as crates/sim/examples/bench.rs: a drop-tail bottleneck of one BDP (167
// packets at 100 Mb/s, 1667 at 1 Gb/s), ACKs through a reverse queue at the same rate with
// a deep buffer, 10 ms pipes each way (20 ms base RTT), 1500 B data, 40 B ACKs, IW 10,
// all flows starting at 0. htsim's TCP is NewReno without SACK with one ACK per segment;
// its minimum RTO is 250 ms (fixed in its source) and its RTO timers are driven by a
// scanner every 10 ms. mp: N/2 TCP flows and N/2 two-subflow LIA (htsim's COUPLED_INC)
// connections on one bottleneck; mpd: two bottlenecks, each with N TCP flows and one
// subflow of each of N LIA connections; fence (the scale case): 100 bottlenecks of 1 Gb/s
// side by side, flow i on link i mod 100, TCP and two-subflow LIA alternating on each link,
// a connection's second subflow on the next link (the last link's on the first), starts
// spread evenly over the first second (as bench.rs's `fence`). Prints the data packets
// that left the bottleneck queue(s), the events processed and the peak resident set.

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "config.h"
#include "eventlist.h"
#include "mtcp.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "tcp.h"

// A FIFO queue that counts the packets it finished serialising.
class CountingQueue : public Queue {
  public:
    CountingQueue(linkspeed_bps rate, mem_b size, EventList& ev) : Queue(rate, size, ev, NULL), departed(0) {}
    uint64_t departed;

  protected:
    void completeService() override {
        departed++;
        Queue::completeService();
    }
};

struct Dumbbell {
    CountingQueue* fwd_queue;
    Pipe* fwd_pipe;
    Queue* rev_queue;
    Pipe* rev_pipe;
};

static Dumbbell dumbbell(EventList& ev, linkspeed_bps rate, int buffer_packets) {
    Dumbbell d;
    d.fwd_queue = new CountingQueue(rate, memFromPkt(buffer_packets), ev);
    d.rev_queue = new Queue(rate, memFromPkt(10000), ev, NULL);
    d.fwd_pipe = new Pipe(timeFromMs(10), ev);
    d.rev_pipe = new Pipe(timeFromMs(10), ev);
    return d;
}

static const int FENCE_LINKS = 100;

static TcpSrc* tcp_flow(EventList& ev, TcpRtxTimerScanner& scanner, const Dumbbell& d, simtime_picosec start = 0) {
    TcpSrc* src = new TcpSrc(NULL, NULL, ev);
    TcpSink* sink = new TcpSink();
    scanner.registerTcp(*src);
    Route* out = new Route();
    out->push_back(d.fwd_queue);
    out->push_back(d.fwd_pipe);
    out->push_back(sink);
    Route* back = new Route();
    back->push_back(d.rev_queue);
    back->push_back(d.rev_pipe);
    back->push_back(src);
    src->connect(*out, *back, *sink, start);
    return src;
}

int main(int argc, char** argv) {
    const char* usage = "usage: bench_htsim <b1|s|mp|mpd|fence> <flows> <seconds> (fence: flows a multiple of 200)\n";
    if (argc != 4) {
        fputs(usage, stderr);
        return 2;
    }
    std::string kind = argv[1];
    int n = atoi(argv[2]);
    int seconds = atoi(argv[3]);
    bool known = kind == "b1" || kind == "s" || kind == "mp" || kind == "mpd" || kind == "fence";
    if (n <= 0 || seconds <= 0 || !known || (kind == "fence" && n % (2 * FENCE_LINKS) != 0)) {
        fputs(usage, stderr);
        return 2;
    }
    bool gigabit = kind == "s" || kind == "fence";
    uint64_t mbps = gigabit ? 1000 : 100;
    int bdp = gigabit ? 1667 : 167;

    // htsim's TCP writes a line to cout at every retransmission timeout (thousands a second
    // with 10 000 flows); the benchmark measures simulation, not terminal output, so cout is
    // put in a failed state and those writes format nothing. Our result line uses printf.
    std::cout.setstate(std::ios_base::badbit);

    Packet::set_packet_size(1500);
    EventList ev;
    ev.setEndtime(timeFromSec(seconds));
    TcpRtxTimerScanner scanner(timeFromMs(10), ev);

    std::vector<Dumbbell> bottlenecks;
    bottlenecks.push_back(dumbbell(ev, speedFromMbps(mbps), bdp));
    if (kind == "b1" || kind == "s") {
        for (int i = 0; i < n; i++) tcp_flow(ev, scanner, bottlenecks[0]);
    } else if (kind == "mp") {
        for (int i = 0; i < n / 2; i++) tcp_flow(ev, scanner, bottlenecks[0]);
        for (int i = 0; i < n / 2; i++) {
            MultipathTcpSrc* mp = new MultipathTcpSrc(COUPLED_INC, ev, NULL);
            for (int k = 0; k < 2; k++) mp->addSubflow(tcp_flow(ev, scanner, bottlenecks[0]));
        }
    } else if (kind == "fence") {
        for (int k = 1; k < FENCE_LINKS; k++) bottlenecks.push_back(dumbbell(ev, speedFromMbps(mbps), bdp));
        for (int i = 0; i < n; i++) {
            int k = i % FENCE_LINKS, j = i / FENCE_LINKS;
            simtime_picosec start = timeFromSec(1) * (simtime_picosec)i / (simtime_picosec)n;
            if (j % 2 == 0) {
                tcp_flow(ev, scanner, bottlenecks[k], start);
            } else {
                MultipathTcpSrc* mp = new MultipathTcpSrc(COUPLED_INC, ev, NULL);
                mp->addSubflow(tcp_flow(ev, scanner, bottlenecks[k], start));
                mp->addSubflow(tcp_flow(ev, scanner, bottlenecks[(k + 1) % FENCE_LINKS], start));
            }
        }
    } else {
        bottlenecks.push_back(dumbbell(ev, speedFromMbps(mbps), bdp));
        for (auto& d : bottlenecks)
            for (int i = 0; i < n; i++) tcp_flow(ev, scanner, d);
        for (int i = 0; i < n; i++) {
            MultipathTcpSrc* mp = new MultipathTcpSrc(COUPLED_INC, ev, NULL);
            for (auto& d : bottlenecks) mp->addSubflow(tcp_flow(ev, scanner, d));
        }
    }

    uint64_t events = 0;
    while (ev.doNextEvent()) events++;
    uint64_t packets = 0;
    for (auto& d : bottlenecks) packets += d.fwd_queue->departed;
    struct rusage usage_now;
    getrusage(RUSAGE_SELF, &usage_now);
    printf("scenario=%s flows=%d sim_seconds=%d bottleneck_packets=%llu events=%llu events_per_packet=%.3f peak_rss_kib=%ld\n", kind.c_str(),
           n, seconds, (unsigned long long)packets, (unsigned long long)events, (double)events / (double)packets, usage_now.ru_maxrss);
    return 0;
}

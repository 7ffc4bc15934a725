# N long ExpressPass flows through one bottleneck link in the authors' ns-2 model (XPass-ns2), laid out like
# its scripts/dumbell-topology.tcl: hosts -> left gateway -> right gateway -> hosts, XPassDropTail queues on
# every link toward a host and on the gateway link, plain DropTail on the host uplinks.
# ns dumbbell.tcl LINK_GBPS LATENCY_US CREDIT_QUEUE_CREDITS BUCKET_CREDITS DURATION_S SEED N
# SEED > 1 staggers the flow starts by i x SEED x 0.1 us (the agent's jitter uses rand(), which Tcl does not
# seed), so runs differ. The bottleneck link's packets are traced in outputs/trace.out (fairness.py reads it).
set linkGb [lindex $argv 0]
set lat [lindex $argv 1]
set cq [lindex $argv 2]
set cb [lindex $argv 3]
set dur [lindex $argv 4]
set seed [lindex $argv 5]
set N [lindex $argv 6]
set ns [new Simulator]
set creditRate [expr 64734895 * $linkGb / 10]  ;# bytes/s of 84-B credits: 84/1622 of the link
file mkdir "outputs"
set nt [open outputs/trace.out w]
close [open outputs/fct.out w]
proc finish {} {
  global ns nt
  $ns flush-trace
  close $nt
  exit 0
}
set lg [$ns node]
set rg [$ns node]
for {set i 0} {$i < $N} {incr i} {
  set ln($i) [$ns node]
  set rn($i) [$ns node]
}
Queue/DropTail set mean_pktsize_ 1538
Queue/DropTail set qlim_ 100
Queue/XPassDropTail set credit_limit_ [expr 84 * $cq]
Queue/XPassDropTail set max_tokens_ [expr 84 * $cb]
Queue/XPassDropTail set data_limit_ [expr 1538 * 100]
Queue/XPassDropTail set token_refresh_rate_ $creditRate
for {set i 0} {$i < $N} {incr i} {
  $ns simplex-link $ln($i) $lg [set linkGb]Gb [set lat]us DropTail
  $ns simplex-link $lg $ln($i) [set linkGb]Gb [set lat]us XPassDropTail
  $ns simplex-link $rn($i) $rg [set linkGb]Gb [set lat]us DropTail
  $ns simplex-link $rg $rn($i) [set linkGb]Gb [set lat]us XPassDropTail
}
$ns duplex-link $lg $rg [set linkGb]Gb [set lat]us XPassDropTail
$ns trace-queue $lg $rg $nt
Agent/XPass set max_credit_rate_ $creditRate
for {set i 0} {$i < $N} {incr i} {
  set s($i) [new Agent/XPass]
  set r($i) [new Agent/XPass]
  $ns attach-agent $ln($i) $s($i)
  $ns attach-agent $rn($i) $r($i)
  $s($i) set fid_ $i
  $r($i) set fid_ $i
  $ns connect $s($i) $r($i)
}
for {set i 0} {$i < $N} {incr i} {
  set start [expr $seed > 1 ? $i * $seed * 1e-7 : 0.0]
  $ns at $start "$s($i) advance-bytes 1000000000"
}
$ns at $dur "finish"
$ns run

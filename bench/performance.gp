# bench/performance.gp - throughput against module size, one line per tool (log-log).
# gnuplot -e "datafile='plot.dat'; outfile='performance.png'; subtitle='...'" performance.gp
# The data file has one block (separated by two blank lines) per tool, as spvbc_bench --plot
# writes it: a header row with the quoted title, then size in MiB, throughput in MB/s.
if (!exists("datafile")) datafile = 'plot.dat'
if (!exists("outfile")) outfile = 'performance.png'
if (!exists("subtitle")) subtitle = ''
set terminal pngcairo size 1000,640 font "DejaVu Sans,11" noenhanced
set output outfile
set title "spirv-bitcast throughput against module size\n".subtitle
set logscale xy
set xlabel "module size (MiB)"
set ylabel "throughput (MB/s = 10^6 bytes/s, median)"
set xtics (1, 2, 4, 8, 16, 32, 64, 128)
set format y "%g"
set grid xtics ytics mytics
set key outside right center
set xrange [0.8:170]
stats datafile using 1 nooutput
plot for [i=0:STATS_blocks-1] datafile index i using 1:2 with linespoints lw 2 pt (i+5) \
    title columnheader(1)

# bench/performance.gp - throughput against module size, one line per tool (log-log).
# gnuplot -e "datafile='plot.dat'; outfile='performance.png'; subtitle='...'" performance.gp
# The data file has one block (separated by two blank lines) per tool, as spvbc_bench --plot
# writes it: a header row with the quoted title, then size in MiB, throughput in MB/s.
if (!exists("datafile")) datafile = 'plot.dat'
if (!exists("outfile")) outfile = 'performance.png'
if (!exists("subtitle")) subtitle = ''
set terminal pngcairo size 1100,660 font "DejaVu Sans,11" noenhanced
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
# one colour per line (gnuplot's default cycle has 8); blocks 0-1 are in process (solid),
# the others whole processes (dashed)
dtype(i) = i < 2 ? 1 : 2
color(i) = word(colors, i % 10 + 1)
colors = "#7b2cbf #2a9d8f #6c757d #adb5bd #e76f51 #f4a261 #e9c46a #9d0208 #0077b6 #000000"
stats datafile using 1 nooutput
plot for [i=0:STATS_blocks-1] datafile index i using 1:2 with linespoints lw 2 pt (i+5) \
    dashtype dtype(i) lc rgb color(i) title columnheader(1)

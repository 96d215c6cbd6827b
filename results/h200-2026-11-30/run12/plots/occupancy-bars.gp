# simtbench plot: occupancy 67108864x1: GB/s of each variant
# Render from this directory: gnuplot occupancy-bars.gp (writes occupancy-bars.png and occupancy-bars.svg)
set encoding utf8
set datafile missing '?'
set termoption noenhanced
set title 'occupancy 67108864x1: GB/s of each variant'
set key below
set grid
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -35 left
set ylabel 'GB/s'
set yrange [0:*]
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1100,620 noenhanced
} else {
    set terminal png size 1100,620
}
set output 'occupancy-bars.png'
plot 'occupancy-bars.dat' using 2:xtic(1) title 'cuda', '' using 3 title 'opencl'
set terminal svg size 1100,620 noenhanced background rgb 'white'
set output 'occupancy-bars.svg'
plot 'occupancy-bars.dat' using 2:xtic(1) title 'cuda', '' using 3 title 'opencl'
unset output

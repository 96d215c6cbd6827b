# simtbench plot: global_walk: effective bandwidth against stride, measured and modelled
# Render from this directory: gnuplot global_walk-bandwidth.gp (writes global_walk-bandwidth.png and global_walk-bandwidth.svg)
set encoding utf8
set datafile missing '?'
set termoption noenhanced
set title 'global_walk: effective bandwidth against stride, measured and modelled'
set key below
set grid
set logscale x 2
set xlabel 'stride (words between lanes)'
set ylabel 'effective GB/s'
set yrange [0:*]
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1100,620 noenhanced
} else {
    set terminal png size 1100,620
}
set output 'global_walk-bandwidth.png'
plot 'global_walk-bandwidth.dat' index 0 using 1:2 with linespoints lw 2 lc 1 title 'cuda, 4-byte words', 'global_walk-bandwidth.dat' index 0 using 1:3 with lines dashtype 2 lw 1 lc 1 title 'model: cuda, 4-byte words (copy roof)', 'global_walk-bandwidth.dat' index 1 using 1:2 with linespoints lw 2 lc 2 title 'opencl, 4-byte words', 'global_walk-bandwidth.dat' index 1 using 1:3 with lines dashtype 2 lw 1 lc 2 title 'model: opencl, 4-byte words (copy roof)'
set terminal svg size 1100,620 noenhanced background rgb 'white'
set output 'global_walk-bandwidth.svg'
plot 'global_walk-bandwidth.dat' index 0 using 1:2 with linespoints lw 2 lc 1 title 'cuda, 4-byte words', 'global_walk-bandwidth.dat' index 0 using 1:3 with lines dashtype 2 lw 1 lc 1 title 'model: cuda, 4-byte words (copy roof)', 'global_walk-bandwidth.dat' index 1 using 1:2 with linespoints lw 2 lc 2 title 'opencl, 4-byte words', 'global_walk-bandwidth.dat' index 1 using 1:3 with lines dashtype 2 lw 1 lc 2 title 'model: opencl, 4-byte words (copy roof)'
unset output

# simtbench plot: shared_stride: bank-conflict slowdown against stride, with the predicted ways
# Render from this directory: gnuplot shared_stride-conflicts.gp (writes shared_stride-conflicts.png and shared_stride-conflicts.svg)
set encoding utf8
set datafile missing '?'
set termoption noenhanced
set title 'shared_stride: bank-conflict slowdown against stride, with the predicted ways'
set key below
set grid
set logscale x 2
set xlabel 'stride (words between lanes)'
set ylabel 'time per access / at the smallest stride'
set yrange [0:*]
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1100,620 noenhanced
} else {
    set terminal png size 1100,620
}
set output 'shared_stride-conflicts.png'
plot 'shared_stride-conflicts.dat' index 0 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 4-byte words', 'shared_stride-conflicts.dat' index 0 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 4-byte words', 'shared_stride-conflicts.dat' index 1 using 1:2 with linespoints lw 2 title 'cuda, shared_store, 4-byte words', 'shared_stride-conflicts.dat' index 2 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 8-byte words', 'shared_stride-conflicts.dat' index 2 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 8-byte words', 'shared_stride-conflicts.dat' index 3 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 16-byte words', 'shared_stride-conflicts.dat' index 3 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 16-byte words', 'shared_stride-conflicts.dat' index 4 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 4-byte words', 'shared_stride-conflicts.dat' index 5 using 1:2 with linespoints lw 2 title 'opencl, shared_store, 4-byte words', 'shared_stride-conflicts.dat' index 6 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 8-byte words', 'shared_stride-conflicts.dat' index 7 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 16-byte words'
set terminal svg size 1100,620 noenhanced background rgb 'white'
set output 'shared_stride-conflicts.svg'
plot 'shared_stride-conflicts.dat' index 0 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 4-byte words', 'shared_stride-conflicts.dat' index 0 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 4-byte words', 'shared_stride-conflicts.dat' index 1 using 1:2 with linespoints lw 2 title 'cuda, shared_store, 4-byte words', 'shared_stride-conflicts.dat' index 2 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 8-byte words', 'shared_stride-conflicts.dat' index 2 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 8-byte words', 'shared_stride-conflicts.dat' index 3 using 1:2 with linespoints lw 2 title 'cuda, shared_load, 16-byte words', 'shared_stride-conflicts.dat' index 3 using 1:3 with linespoints dashtype 2 lw 2 pt 6 ps 1.5 lc rgb 'black' title 'model: predicted ways, 16-byte words', 'shared_stride-conflicts.dat' index 4 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 4-byte words', 'shared_stride-conflicts.dat' index 5 using 1:2 with linespoints lw 2 title 'opencl, shared_store, 4-byte words', 'shared_stride-conflicts.dat' index 6 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 8-byte words', 'shared_stride-conflicts.dat' index 7 using 1:2 with linespoints lw 2 title 'opencl, shared_load, 16-byte words'
unset output

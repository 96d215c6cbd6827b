# simtbench plot: matmul: GFLOP/s against arithmetic intensity, under the bandwidth roof
# Render from this directory: gnuplot matmul-roofline.gp (writes matmul-roofline.png and matmul-roofline.svg)
set encoding utf8
set datafile missing '?'
set termoption noenhanced
set title 'matmul: GFLOP/s against arithmetic intensity, under the bandwidth roof'
set key below
set grid
set logscale xy 2
set xlabel 'arithmetic intensity (FLOP per byte)'
set ylabel 'GFLOP/s'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1100,620 noenhanced
} else {
    set terminal png size 1100,620
}
set output 'matmul-roofline.png'
plot 'matmul-roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc 1 title 'cuda', 'matmul-roofline.dat' index 0 using 1:2:3 with labels offset 1,0.8 notitle, 'matmul-roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc 2 title 'opencl', 'matmul-roofline.dat' index 2 using 1:2 with lines dashtype 2 lw 2 lc 1 title 'cuda roof: 4174 GB/s x intensity', 'matmul-roofline.dat' index 3 using 1:2 with lines dashtype 2 lw 2 lc 2 title 'opencl roof: 4159 GB/s x intensity'
set terminal svg size 1100,620 noenhanced background rgb 'white'
set output 'matmul-roofline.svg'
plot 'matmul-roofline.dat' index 0 using 1:2 with points pt 7 ps 1.5 lc 1 title 'cuda', 'matmul-roofline.dat' index 0 using 1:2:3 with labels offset 1,0.8 notitle, 'matmul-roofline.dat' index 1 using 1:2 with points pt 7 ps 1.5 lc 2 title 'opencl', 'matmul-roofline.dat' index 2 using 1:2 with lines dashtype 2 lw 2 lc 1 title 'cuda roof: 4174 GB/s x intensity', 'matmul-roofline.dat' index 3 using 1:2 with lines dashtype 2 lw 2 lc 2 title 'opencl roof: 4159 GB/s x intensity'
unset output
